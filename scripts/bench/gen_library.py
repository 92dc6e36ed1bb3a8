#!/usr/bin/env python3
"""Deterministic generator of a large synthetic markdown library (stdlib only).

Usage:
    python3 gen_library.py OUTDIR [--docs N] [--seed S] [--images K] [--force]

The same (N, S, K) always produces byte-identical files.  OUTDIR is both the
Librarian docs root (the frontmatter convention: folders, frontmatter tags, index.md per folder)
and a JSON-index library root (index.json + images/index.json):

    OUTDIR/
      index.md                         root folder description, frontmatter tags
      <l1>/index.md                    each folder has an index.md with tags
      <l1>/<l2>/index.md
      <l1>/<l2>/<l3>/index.md
      <l1>/<l2>/<l3>/<doc>.md          ~85% of docs live in level-3 folders,
      <l1>/<l2>/<doc>.md               ~10% in level-2 folders,
      <l1>/<doc>.md                    ~5% in level-1 folders
      index.json                       {"documents":[{id,path,title,summary,approx_tokens}]}
      images/index.json                {"images":[{id,file,caption}]}
      images/*.png                     small real PNG files (stdlib zlib)
      bench_terms.json                 planted search terms with their document
                                       frequencies, for benchmarks

Documents (N of them; index.md files come on top of N):
  * 4-6 KB each (UTF-8, "\n" line ends), YAML frontmatter with `title` and a
    flow list of `tags`;
  * 5-15 headings of mixed levels (one `#` title, then `##`..`####`; about 5%
    of docs have a second `#` heading, about 8% have a preamble paragraph
    before the first heading);
  * 1-3 fenced code blocks (``` or ~~~, languages python/go/bash/json/yaml/ts;
    python and bash blocks contain `# comment` lines that are not headings);
  * image stubs `![[image:ID]]` (0-3 per doc, ids from images/index.json);
  * English-ish text: real function and content words plus a Zipf-distributed
    tail of pseudo-words, so queries hit a mix of rare and common terms.

index.json entries: `id` = file stem (unique), `path` = path relative to
OUTDIR with `/` separators and no leading slash, `title` = the `#` title,
`summary` = first sentences of the first paragraph (<= 200 chars),
`approx_tokens` = ceil(file bytes / 4).  images/index.json `file` is relative
to the images/ folder.

bench_terms.json lists planted terms (rare / medium / common / regex) with the
number of .md files (documents and index.md files) whose body (text after the
frontmatter) contains them, case-insensitively; that is what Librarian's
searchDocuments counts.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import random
import re
import shutil
import struct
import sys
import zlib

FUNCTION_WORDS = (
    "the of and to in is that for it as with on be by this are or an from at which not can "
    "was if we when each all will one also but has have into more may only other such "
    "than then these they their there so its two use used using first must should would "
    "between through after before most some any new where while both over under without"
).split()

CONTENT_WORDS = (
    "system data process value model network signal memory buffer cache index query "
    "record field table schema stream packet frame socket thread worker queue event "
    "handler request response server client session token secret policy access control "
    "service module package library interface adapter port driver device sensor motor "
    "rotor stator voltage current circuit filter sample rate window kernel matrix vector "
    "tensor gradient weight layer channel pipeline stage build release deploy cluster node "
    "replica shard partition leader follower quorum ledger balance account invoice order "
    "customer product inventory warehouse route path graph edge vertex tree branch leaf "
    "root hash digest cipher block chain proof audit trace metric alert dashboard report "
    "config option setting default override profile version migration rollback snapshot "
    "backup restore archive volume disk file folder document section heading paragraph "
    "image caption figure chart diagram sketch draft review comment issue change patch "
    "commit merge conflict resolve test suite case fixture mock stub assert failure error "
    "warning notice timeout retry backoff limit quota budget cost latency throughput "
    "bandwidth capacity scale shift offset length width height depth format encode decode "
    "parse render compile link load store fetch write read open close start stop pause "
    "resume lock unlock acquire release wait signal notify observe measure estimate "
    "calibrate calibration tune adjust align detect classify cluster segment predict "
    "forecast simulate optimize minimize maximize reduce expand compress decompress "
    "encrypt decrypt verify validate sanitize escape normalize transform convert project "
    "climate ocean river forest soil crop harvest seed protein enzyme cell tissue organ "
    "genome sequence molecule reactor turbine engine wing hull orbit satellite telescope "
    "galaxy planet comet lattice crystal alloy polymer fiber membrane solvent catalyst"
).split()

LEVEL1_NAMES = (
    "networking storage compilers databases security graphics robotics finance biology "
    "climate astronomy materials energy logistics medicine linguistics acoustics optics "
    "geology aviation"
).split()

LANGUAGES = ("python", "go", "bash", "json", "yaml", "ts")

SYLLABLES = (
    "ba be bi bo bu da de di do du fa fe fi fo ka ke ki ko ku la le li lo lu ma me mi mo "
    "mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve "
    "vi vo za ze zi zo bra tre qui stro plen kor vash thal nyx orb ul ex an on ir"
).split()

# Planted benchmark terms: (term, share of documents that receive it, minimum).
# Both are real but unusual English words that the vocabulary never produces, so
# the planted count is their exact document frequency.
PLANTED = (
    ("quillwort", 0.0, 3),      # rare: exactly 3 documents (fewer if N < 3)
    ("lanthanide", 0.01, 1),    # medium: 1% of documents
)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Vocab:
    """Weighted word sampler: function words, content words, pseudo-word tail."""

    def __init__(self, rng: random.Random, tail_size: int = 6000):
        words: list[str] = []
        weights: list[float] = []
        for rank, w in enumerate(FUNCTION_WORDS, start=1):
            words.append(w)
            weights.append(60.0 / rank ** 0.6)
        for rank, w in enumerate(CONTENT_WORDS, start=1):
            words.append(w)
            weights.append(4.0 / rank ** 0.5)
        seen = set(words)
        tail: list[str] = []
        while len(tail) < tail_size:
            n = rng.choice((2, 2, 3, 3, 3, 4))
            w = "".join(rng.choice(SYLLABLES) for _ in range(n))
            if w in seen or len(w) < 4 or "quillwort" in w or "lanthanide" in w:
                continue
            seen.add(w)
            tail.append(w)
        for rank, w in enumerate(tail, start=1):
            words.append(w)
            weights.append(1.5 / rank ** 1.05)
        self.words = words
        self.tail = tail
        self.cum: list[float] = []
        total = 0.0
        for x in weights:
            total += x
            self.cum.append(total)
        self.total = total

    def word(self, rng: random.Random) -> str:
        return self.words[bisect.bisect_right(self.cum, rng.random() * self.total)]

    def sentence(self, rng: random.Random, lo: int = 7, hi: int = 18) -> str:
        n = rng.randint(lo, hi)
        ws = [self.word(rng) for _ in range(n)]
        ws[0] = ws[0].capitalize()
        if n > 9 and rng.random() < 0.35:
            ws[rng.randint(3, n - 3)] += ","
        return " ".join(ws) + rng.choice((".", ".", ".", ".", "?"))

    def paragraph(self, rng: random.Random, lo: int = 2, hi: int = 5) -> str:
        return " ".join(self.sentence(rng) for _ in range(rng.randint(lo, hi)))

    def title(self, rng: random.Random, lo: int = 2, hi: int = 5) -> str:
        picks = []
        for _ in range(rng.randint(lo, hi)):
            w = self.word(rng)
            while w in FUNCTION_WORDS:
                w = self.word(rng)
            picks.append(w)
        return " ".join(p.capitalize() for p in picks)


def png_bytes(width: int, height: int, rgb_fn) -> bytes:
    """A real (valid) 8-bit RGB PNG built with zlib and struct."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type None
        for x in range(width):
            raw.extend(rgb_fn(x, y))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def make_images(rng: random.Random, vocab: Vocab, outdir: str, count: int) -> list[dict]:
    os.makedirs(os.path.join(outdir, "images"), exist_ok=True)
    images = []
    for i in range(count):
        a = [rng.randint(0, 255) for _ in range(3)]
        b = [rng.randint(0, 255) for _ in range(3)]
        size = rng.choice((16, 24, 32, 48))
        kind = i % 3

        def fn(x, y, a=a, b=b, size=size, kind=kind):
            if kind == 0:  # horizontal gradient
                t = x / (size - 1)
            elif kind == 1:  # checkerboard
                t = float(((x // 4) + (y // 4)) % 2)
            else:  # diagonal bands
                t = ((x + y) % 8) / 7
            return bytes(int(a[c] + (b[c] - a[c]) * t) for c in range(3))

        name = f"img-{vocab.tail[i * 7 % len(vocab.tail)]}-{i + 1:02d}"
        with open(os.path.join(outdir, "images", name + ".png"), "wb") as f:
            f.write(png_bytes(size, size, fn))
        caption = f"{vocab.title(rng, 2, 4)}: {vocab.sentence(rng, 5, 9).rstrip('.?')}"
        images.append({"id": name, "file": name + ".png", "caption": caption})
    return images


CODE_TEMPLATES = {
    "python": lambda w: [
        f"# {w[0]} {w[1]} helper",
        f"def {w[2]}_{w[3]}({w[4]}, {w[5]}=None):",
        f"    # normalise the {w[6]} before use",
        f"    result = {{\"{w[7]}\": {w[4]}, \"{w[8]}\": {w[5]}}}",
        f"    return result",
    ],
    "go": lambda w: [
        f"// {w[2].capitalize()}{w[3].capitalize()} returns the {w[6]} of a {w[7]}.",
        f"func {w[2].capitalize()}{w[3].capitalize()}({w[4]} string) (int, error) {{",
        f"\tif {w[4]} == \"\" {{",
        f"\t\treturn 0, fmt.Errorf(\"empty {w[5]}\")",
        "\t}",
        f"\treturn len({w[4]}), nil",
        "}",
    ],
    "bash": lambda w: [
        f"# {w[0]} the {w[1]} before {w[2]}",
        f"export {w[3].upper()}_{w[4].upper()}=\"{w[5]}\"",
        f"{w[6]}ctl --{w[7]} \"${w[3].upper()}_{w[4].upper()}\" | grep -i {w[8]}",
    ],
    "json": lambda w: [
        "{",
        f"  \"{w[0]}\": \"{w[1]}\",",
        f"  \"{w[2]}\": [\"{w[3]}\", \"{w[4]}\"],",
        f"  \"{w[5]}\": {{ \"{w[6]}\": 42, \"{w[7]}\": true }}",
        "}",
    ],
    "yaml": lambda w: [
        f"{w[0]}:",
        f"  {w[1]}: {w[2]}",
        f"  {w[3]}:",
        f"    - {w[4]}",
        f"    - {w[5]}",
        f"  {w[6]}: 0.75",
    ],
    "ts": lambda w: [
        f"export function {w[2]}{w[3].capitalize()}({w[4]}: string): number {{",
        f"  const {w[5]} = {w[4]}.split(\"{w[6][0]}\");",
        f"  return {w[5]}.length; // {w[7]} {w[8]}",
        "}",
    ],
}


def code_block(rng: random.Random, vocab: Vocab) -> str:
    lang = rng.choice(LANGUAGES)
    words = []
    while len(words) < 9:
        w = vocab.word(rng)
        if w not in FUNCTION_WORDS and w.isalpha():
            words.append(w)
    fence = "~~~" if rng.random() < 0.15 else "```"
    lines = CODE_TEMPLATES[lang](words)
    return "\n".join([fence + lang, *lines, fence])


def build_folders(rng: random.Random, vocab: Vocab, n_docs: int):
    """Return (level1, level2, level3) folder lists; each entry is (relpath, name, depth)."""
    leaves_wanted = max(1, math.ceil(n_docs / 10))
    fan = max(2, math.ceil(leaves_wanted ** (1 / 3)))
    used: set[str] = set()

    def fresh_name() -> str:
        while True:
            w = "-".join(vocab.tail[rng.randrange(0, 1500)] for _ in range(rng.choice((1, 1, 2))))
            if w not in used:
                used.add(w)
                return w

    l1 = []
    for i in range(fan):
        name = LEVEL1_NAMES[i] if i < len(LEVEL1_NAMES) else fresh_name()
        used.add(name)
        l1.append((name, name, 1))
    l2 = [(f"{p}/{n}", n, 2) for p, _, _ in l1 for n in (fresh_name() for _ in range(fan))]
    l3 = [(f"{p}/{n}", n, 3) for p, _, _ in l2 for n in (fresh_name() for _ in range(fan))]
    return l1, l2, l3


def folder_index(rng: random.Random, vocab: Vocab, name: str, tags: list[str]) -> str:
    title = " ".join(part.capitalize() for part in name.split("-"))
    body = [f"# {title}", "", vocab.paragraph(rng, 2, 4), ""]
    return "---\n" + "tags: " + json.dumps(tags) + "\n---\n\n" + "\n".join(body)


def make_doc(rng: random.Random, vocab: Vocab, tag_pool: list[str], tag_cum: list[float],
             image_ids: list[str], planted: list[str]) -> tuple[str, str, str]:
    """Return (title, frontmatter+body text, summary)."""
    target = rng.randint(4300, 5700)
    title = vocab.title(rng)
    n_tags = rng.randint(2, 5)
    tags: list[str] = []
    while len(tags) < n_tags:
        t = tag_pool[bisect.bisect_right(tag_cum, rng.random() * tag_cum[-1])]
        if t not in tags:
            tags.append(t)
    front = "---\n" + "title: " + json.dumps(title) + "\ntags: " + json.dumps(tags) + "\n---\n\n"

    n_head = rng.randint(5, 15)
    second_h1 = rng.randrange(2, n_head) if rng.random() < 0.05 else None
    levels = [1]
    for i in range(1, n_head):
        if i == second_h1:
            levels.append(1)
            continue
        prev = levels[-1]
        r = rng.random()
        if prev <= 2:
            levels.append(2 if r < 0.6 else 3)
        elif prev == 3:
            levels.append(2 if r < 0.4 else (3 if r < 0.8 else 4))
        else:
            levels.append(2 if r < 0.3 else (3 if r < 0.7 else 4))
    n_code = rng.randint(1, 3)
    code_at = set(rng.sample(range(n_head), min(n_code, n_head)))
    n_img = rng.choice((0, 0, 1, 1, 2, 3))
    img_at = [rng.randrange(n_head) for _ in range(n_img)]

    parts: list[str] = []
    if rng.random() < 0.08:
        parts.append(vocab.paragraph(rng, 1, 2))
        parts.append("")
    first_para = vocab.paragraph(rng, 2, 4)
    budget_fixed = len(front) + 200
    per_section = max(120, (target - budget_fixed) // n_head)
    sections: list[list[str]] = []
    for i, lvl in enumerate(levels):
        heading_text = title if i == 0 else vocab.title(rng, 1, 4)
        lines = ["#" * lvl + " " + heading_text, ""]
        size = 0
        if i == 0:
            lines += [first_para, ""]
            size += len(first_para)
        if i in code_at:
            cb = code_block(rng, vocab)
            lines += [cb, ""]
            size += len(cb)
        for _ in range(img_at.count(i)):
            stub = f"![[image:{rng.choice(image_ids)}]]"
            lines += [stub, ""]
        while size < per_section - 60:
            p = vocab.paragraph(rng, 1, 3)
            if rng.random() < 0.12:
                bullets = [f"- {vocab.sentence(rng, 4, 9)}" for _ in range(rng.randint(2, 4))]
                p = "\n".join(bullets)
            lines += [p, ""]
            size += len(p) + 1
        sections.append(lines)

    # Plant benchmark terms (as whole words inside a sentence) into a section that
    # the size trimming below cannot reach (never the last one).
    for term in planted:
        sec = sections[rng.randrange(max(1, len(sections) - 1))]
        sent = vocab.sentence(rng, 6, 12).rstrip(".?")
        sec.insert(len(sec) - 1, f"{sent} {term} {vocab.word(rng)}.")
        sec.insert(len(sec) - 1, "")

    body = "\n".join(line for sec in sections for line in sec).rstrip("\n") + "\n"
    text = front + "\n".join(parts) + body
    # Trim (whole trailing blocks; fenced blocks contain no blank line) or pad to 4-6 KB.
    while len(text.encode()) > 6000:
        cut = text.rstrip("\n").rfind("\n\n")
        text = text[:cut] + "\n"
    while len(text.encode()) < 4000:
        text += "\n" + vocab.paragraph(rng, 2, 3) + "\n"
    for term in planted:
        if term not in text:  # trimmed away: put it back right after the title block
            at = text.find("\n\n", text.find("\n# ") + 1)
            text = text[:at] + f"\n\nSee also {term}." + text[at:]

    sentences = re.split(r"(?<=[.?])\s+", first_para)
    summary = ""
    for s in sentences:
        if len(summary) + len(s) + 1 > 200:
            break
        summary = (summary + " " + s).strip()
    if not summary:
        summary = first_para[:197].rstrip() + "..."
    return title, text, summary


def body_of(text: str) -> str:
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            rest = text[end + 4:]
            return rest[1:] if rest.startswith("\n") else rest
    return text


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--docs", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--images", type=int, default=12)
    ap.add_argument("--force", action="store_true", help="delete OUTDIR first if it exists")
    args = ap.parse_args(argv)
    if args.docs < 1:
        ap.error("--docs must be >= 1")
    out = args.outdir
    if os.path.exists(out) and os.listdir(out):
        if not args.force:
            ap.error(f"{out} exists and is not empty (use --force to replace it)")
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)

    rng = random.Random(args.seed)
    vocab = Vocab(rng)
    images = make_images(rng, vocab, out, max(1, args.images))
    image_ids = [im["id"] for im in images]

    l1, l2, l3 = build_folders(rng, vocab, args.docs)
    # Tag vocabulary for documents: Zipf-weighted content words and tail words.
    tag_pool = []
    for w in CONTENT_WORDS + vocab.tail[:300]:
        if w not in tag_pool:
            tag_pool.append(w)
    tag_cum = []
    acc = 0.0
    for rank, _ in enumerate(tag_pool, start=1):
        acc += 1.0 / rank ** 0.9
        tag_cum.append(acc)

    files: list[tuple[str, str]] = []  # (relpath, text) in creation order
    files.append(("index.md", folder_index(rng, vocab, "synthetic-library", ["library", "synthetic"])))
    for rel, name, depth in l1 + l2 + l3:
        tags = [name, f"level-{depth}"]
        if rng.random() < 0.3:
            tags.append(tag_pool[rng.randrange(40)])
        files.append((f"{rel}/index.md", folder_index(rng, vocab, name, tags)))

    planted_docs: dict[int, list[str]] = {}
    for term, share, minimum in PLANTED:
        count = max(minimum, int(args.docs * share))
        for i in rng.sample(range(args.docs), min(count, args.docs)):
            planted_docs.setdefault(i, []).append(term)

    entries = []
    stems: set[str] = set()
    for i in range(args.docs):
        r = rng.random()
        pool = l3 if r < 0.85 else (l2 if r < 0.95 else l1)
        folder = pool[rng.randrange(len(pool))][0]
        title, text, summary = make_doc(rng, vocab, tag_pool, tag_cum, image_ids,
                                        planted_docs.get(i, []))
        stem = f"{slugify(title)[:48].strip('-')}-{i + 1:05d}"
        assert stem not in stems
        stems.add(stem)
        rel = f"{folder}/{stem}.md"
        files.append((rel, text))
        entries.append({
            "id": stem,
            "path": rel,
            "title": title,
            "summary": summary,
            "approx_tokens": math.ceil(len(text.encode()) / 4),
        })

    for rel, text in files:
        full = os.path.join(out, *rel.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)

    with open(os.path.join(out, "index.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump({"documents": entries}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(out, "images", "index.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump({"images": images}, f, indent=1, ensure_ascii=False)
        f.write("\n")

    # Document frequencies of benchmark terms over every .md body (case-insensitive),
    # i.e. what Librarian's searchDocuments would report.
    bodies = [body_of(t).lower() for _, t in files]
    common_word = "the"
    medium_content = "calibration"
    # A naturally rare pseudo-word: low word-level document frequency, then the
    # exact substring frequency is checked for a few candidates only.
    word_df: dict[str, int] = {}
    for b in bodies:
        for w in set(re.findall(r"[a-z]+", b)):
            word_df[w] = word_df.get(w, 0) + 1
    tail_rare = None
    candidates = [w for w in vocab.tail if 2 <= word_df.get(w, 0) <= 4 and len(w) >= 8]
    for w in candidates[:50]:
        if 2 <= sum(1 for b in bodies if w in b) <= 5:
            tail_rare = w
            break
    regex = r"\b(rotor|stator|turbine)\b[^.]{0,40}\b(voltage|current)\b"
    regex_c = re.compile(regex, re.IGNORECASE)

    def df(term: str) -> int:
        t = term.lower()
        return sum(1 for b in bodies if t in b)

    terms = {
        "files_md": len(files),
        "documents": args.docs,
        "index_md_files": len(files) - args.docs,
        "string_terms": [
            {"kind": "rare-planted", "query": PLANTED[0][0], "df": df(PLANTED[0][0])},
            {"kind": "rare-natural", "query": tail_rare, "df": df(tail_rare) if tail_rare else 0},
            {"kind": "medium-planted", "query": PLANTED[1][0], "df": df(PLANTED[1][0])},
            {"kind": "medium-natural", "query": medium_content, "df": df(medium_content)},
            {"kind": "common", "query": common_word, "df": df(common_word)},
        ],
        "regex_terms": [
            {"kind": "regex", "query": regex, "flags": "i",
             "df": sum(1 for b in bodies if regex_c.search(b))},
        ],
        "tags": {
            "level1_folder_tag_example": l1[0][1],
            "doc_tag_common": tag_pool[0],
            "doc_tag_rare": tag_pool[-1],
        },
        "seed": args.seed,
    }
    with open(os.path.join(out, "bench_terms.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(terms, f, indent=1)
        f.write("\n")
    total = sum(len(t.encode()) for _, t in files)
    print(f"wrote {len(files)} .md files ({args.docs} documents + {len(files) - args.docs} index.md), "
          f"{total / 1e6:.1f} MB, {len(images)} images into {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
