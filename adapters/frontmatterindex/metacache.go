package frontmatterindex

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
	"github.com/librarian/librarian/domain"
)

// The metadata cache keeps every file's metadata (frontmatter fields, first
// heading, problems) with the stamp of the bytes it came from in one file
// outside the library (next to the section index), so that a restart on an
// unchanged library stats its files instead of reading every one of them:
// 11,111 files' frontmatter took ~2 s of CPU on two cores. An entry is
// trusted exactly as the in-memory cache is (same stamp, read outside the
// racy window); a missing, unreadable, foreign or corrupt cache file is
// simply not used (one log line for the last two), and is rewritten after
// the next walk.

// MetaCache keeps the metadata cache in file (created with its folder
// when missing). log receives the one line a cache file that cannot be used
// or written is worth; nil is slog.Default().
func MetaCache(file string, log *slog.Logger) Option {
	return func(ix *Index) {
		if log == nil {
			log = slog.Default()
		}
		ix.metaFile, ix.metaLog = file, log
	}
}

// metaCacheVersion changes whenever what parseMeta derives changes, so an
// older cache is not trusted.
const metaCacheVersion = 2 // 2: a block that is not valid YAML is read line by line

// metaCacheFile is the cache file's content (see encode: gob took 30 ms
// to decode 11,111 records, a third of a restart's first listing).
type metaCacheFile struct {
	Version int
	Root    string // the library root as opened: a cache of another library is ignored
	Files   []metaRecord
}

// metaRecord is one cached file.
type metaRecord struct {
	Path                     string
	Size                     int64
	ModTime, Changed, ReadAt int64 // Unix nanoseconds
	Inode                    uint64
	Title, Heading, Summary  string
	Tags, Problems           []string
	Tokens                   int
	HasTokens                bool
}

// loadMetaCache fills the in-memory cache from the cache file, once, before
// the first refresh. ix.mu is held.
func (ix *Index) loadMetaCache() {
	if ix.metaFile == "" || ix.metaLoaded {
		return
	}
	ix.metaLoaded = true
	raw, err := os.ReadFile(ix.metaFile)
	if os.IsNotExist(err) {
		return
	}
	var f metaCacheFile
	if err == nil {
		err = f.decode(raw)
	}
	switch {
	case err != nil:
		ix.metaLog.Warn("frontmatter metadata cache unreadable; reading every file", "file", ix.metaFile, "reason", err.Error())
		return
	case f.Version != metaCacheVersion || f.Root != ix.dir:
		return // another version's or another library's: rewritten after this walk
	}
	for _, r := range f.Files {
		if _, ok := ix.files[r.Path]; ok {
			continue
		}
		ix.files[r.Path] = &cached{
			stamp:  domain.Stamp{Size: r.Size, ModTime: time.Unix(0, r.ModTime), Inode: r.Inode, Changed: time.Unix(0, r.Changed)},
			readAt: time.Unix(0, r.ReadAt),
			meta: meta{title: r.Title, heading: r.Heading, summary: r.Summary, tags: r.Tags, tokens: r.Tokens,
				hasTokens: r.HasTokens, problems: r.Problems},
		}
	}
}

// saveMetaCache writes the in-memory cache to the cache file in the
// background (the caller's answer does not wait for it), replacing the file
// atomically so that two servers on one library never read half a file.
// ix.mu is held.
func (ix *Index) saveMetaCache() {
	if ix.metaFile == "" {
		return
	}
	f := metaCacheFile{Version: metaCacheVersion, Root: ix.dir, Files: make([]metaRecord, 0, len(ix.files))}
	for p, c := range ix.files {
		m := c.meta
		f.Files = append(f.Files, metaRecord{Path: p, Size: c.stamp.Size, ModTime: c.stamp.ModTime.UnixNano(),
			Changed: c.stamp.Changed.UnixNano(), ReadAt: c.readAt.UnixNano(), Inode: c.stamp.Inode,
			Title: m.title, Heading: m.heading, Summary: m.summary, Tags: m.tags, Problems: m.problems,
			Tokens: m.tokens, HasTokens: m.hasTokens})
	}
	ix.saves.Add(1)
	go func() {
		defer ix.saves.Done()
		ix.saveMu.Lock()
		defer ix.saveMu.Unlock()
		if err := writeMetaCache(ix.metaFile, &f); err != nil {
			ix.metaLog.Warn("frontmatter metadata cache not written; the next start reads every file", "file", ix.metaFile, "reason", err.Error())
		}
	}()
}

func writeMetaCache(file string, f *metaCacheFile) error {
	buf := f.encode()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return rootfs.WriteAtomic(file, buf, 0o644) // as the section index beside it
}

// metaCacheMagic opens a cache file; its version follows.
const metaCacheMagic = "LIBRFMC"

// encode is the file's bytes: the magic, then its records (rootfs.RecordWriter).
func (f *metaCacheFile) encode() []byte {
	size := 64 + len(f.Root)
	for _, r := range f.Files {
		size += 128 + len(r.Path) + len(r.Title) + len(r.Heading) + len(r.Summary)
		for _, t := range r.Tags {
			size += 8 + len(t)
		}
		for _, p := range r.Problems {
			size += 8 + len(p)
		}
	}
	w := rootfs.RecordWriter{B: make([]byte, 0, size)}
	w.B = append(w.B, metaCacheMagic...)
	w.Int(int64(f.Version))
	w.String(f.Root)
	w.Int(int64(len(f.Files)))
	for _, r := range f.Files {
		w.String(r.Path)
		w.Int(r.Size)
		w.Int(r.ModTime)
		w.Int(r.Changed)
		w.Int(r.ReadAt)
		w.Int(int64(r.Inode))
		w.String(r.Title)
		w.String(r.Heading)
		w.String(r.Summary)
		w.Strings(r.Tags)
		w.Strings(r.Problems)
		w.Int(int64(r.Tokens))
		w.Bool(r.HasTokens)
	}
	return w.B
}

var errMetaCacheCut = errors.New("cut short or damaged")

// decode reads what encode wrote.
func (f *metaCacheFile) decode(b []byte) error {
	if len(b) < len(metaCacheMagic) || string(b[:len(metaCacheMagic)]) != metaCacheMagic {
		return errors.New("not a metadata cache")
	}
	r := rootfs.RecordReader{B: b[len(metaCacheMagic):]}
	f.Version = int(r.Int())
	f.Root = r.String()
	n := r.Count()
	if r.Bad {
		return errMetaCacheCut
	}
	f.Files = make([]metaRecord, 0, n)
	for range n {
		rec := metaRecord{Path: r.String(), Size: r.Int(), ModTime: r.Int(), Changed: r.Int(), ReadAt: r.Int(), Inode: uint64(r.Int()),
			Title: r.String(), Heading: r.String(), Summary: r.String(), Tags: r.Strings(), Problems: r.Strings(),
			Tokens: int(r.Int()), HasTokens: r.Bool()}
		if r.Bad {
			return errMetaCacheCut
		}
		f.Files = append(f.Files, rec)
	}
	if len(r.B) != 0 {
		return errMetaCacheCut
	}
	return nil
}
