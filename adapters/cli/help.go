package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/librarian/librarian/app/config"
)

// command is one subcommand as its --help explains it.
type command struct {
	name, usage, summary string
	about                string    // what it does, beyond the summary
	flags                []flagDoc // its own flags, each with one example
}

// flagDoc explains one flag of a command: what it means, with an example.
type flagDoc struct {
	name, arg, text, example string
}

var commands = []command{
	{name: "serve", usage: "librarian [serve] [--http [ADDR]] [SETTINGS FLAGS]", summary: "serve MCP on stdio (the default; for .mcp.json), or over streamable HTTP with --http",
		about: "Reads JSON-RPC on stdin and answers on stdout; logs go to stderr.\n" +
			"With --http ADDR (LIBRARIAN_HTTP) it serves MCP at http://ADDR/mcp for a team instead, behind\n" +
			"LIBRARIAN_TOKEN; a bare --http listens on 127.0.0.1:8000."},
	{name: "ls", usage: "librarian ls [FOLDER] [flags]", summary: "print the library tree and outlines (list_documents)",
		about: "FOLDER is a folder inside the library, relative to its root (default: the whole library),\n" +
			"or a doc id or path: that doc's outline with line ranges and each section's tokens.\n" +
			"Example: librarian ls backend/storage --line-bounds",
		flags: []flagDoc{
			{"folder", "FOLDER", "the folder to list, relative to the library root (the same as the FOLDER operand)", "librarian ls --folder backend"},
			{"line-bounds", "", "add each section's line range (L18–38), ready for a {\"doc\",\"lines\"} selector", "librarian ls --line-bounds"},
			{"section-depth", "N", "heading levels the outlines show: 1 = # headings only, 2 = # and ##, 0 = no outline (default: all)", "librarian ls --section-depth 2"},
			{"tags", "a,b", "keep only docs carrying ANY of these tags (exact, case-sensitive; comma-separated, repeatable)", "librarian ls --tags security,storage"},
			{"depth", "N", "path segments below FOLDER to descend, the file name counted: 1 = FOLDER's own docs, 2 = one folder deeper (default: all)", "librarian ls backend --depth 1"},
			{"max-tokens", "N", "answer budget in tokens; past it the listing stops at a whole doc and names the folders left out; 0 = no limit (default: --max-answer-tokens)", "librarian ls --max-tokens 2000"},
			{"json", "", "print every doc in scope, with its outline, as one JSON object (docs/command-line.md); not with --max-tokens", "librarian ls backend --json"},
		}},
	{name: "check", usage: "librarian check [--max N] [--json]", summary: "validate the library: print its problems, exit 1 if any",
		about: "Checks the indexes, every doc's file and frontmatter, and image stubs; warnings (such as two\n" +
			"index entries with the same path) are printed but fail nothing. For a docs repository's CI.\n" +
			"The count covers every problem; the list stops after --max of them, saying how many more.\n" +
			"Example: librarian check --root ./docs",
		flags: []flagDoc{
			{"max", "N", "list at most N problems (and N warnings), then a line counting the rest; 0 = all (default 200)", "librarian check --max 20"},
			{"json", "", "print the report as one JSON object, every problem listed (docs/command-line.md)", "librarian check --json"},
		}},
	{name: "get", usage: "librarian get SELECTOR... [flags]", summary: "print docs, sections or line ranges (get_documents)",
		about: "A SELECTOR is a doc id or path, or a JSON selector (quote it for the shell):\n" +
			"  auth                                              a whole doc (by id)\n" +
			"  backend/auth.md                                   a whole doc (by path)\n" +
			"  '{\"root\": \"backend\"}'                             every doc of a folder\n" +
			"  '{\"doc\": \"auth\", \"sections\": [\"login-flow\"]}'     sections, by id (ls --line-bounds lists them)\n" +
			"  '{\"doc\": \"auth\", \"lines\": [43, 50]}'              a line range, both ends included\n" +
			"  '[\"auth\", {\"doc\": \"caching\", \"lines\": [1, 9]}]'   a JSON list, as a \"Left out\" block prints it\n" +
			"A selector that matches nothing is a finding: its note is printed and the exit code is 1.\n" +
			"Example: librarian get auth '{\"doc\": \"caching\", \"sections\": [\"ttl-rules\"]}'",
		flags: []flagDoc{
			{"include-images", "", "print each image the answer would send as a line naming its file, type and size", "librarian get gallery --include-images"},
			{"include-code", "", "keep fenced code blocks (default true); false puts a one-line placeholder in their place", "librarian get auth --include-code false"},
			{"max-tokens", "N", "answer budget in tokens; what does not fit is listed as ready-to-run selectors; 0 = no limit (default: --max-answer-tokens)", "librarian get auth --max-tokens 500"},
			{"json", "", "print the answer as one JSON object: each chunk returned (doc, section, lines, text), images, notes (docs/command-line.md)", "librarian get auth --json"},
		}},
	{name: "search", usage: "librarian search QUERY [FOLDER] [flags]", summary: "search lines of the library (search_documents)",
		about: "Matches each line on its own; quote a phrase; a QUERY starting with '-' goes after --.\n" +
			"FOLDER (or --folder) limits the search to a folder inside the library.\n" +
			"Example: librarian search 'refresh token' backend",
		flags: []flagDoc{
			{"folder", "FOLDER", "search only this folder, relative to the library root (the same as the FOLDER operand)", "librarian search token --folder backend"},
			{"regex", "", "QUERY is a Go RE2 regular expression (no lookbehind, no backreferences)", `librarian search --regex '^## (Login|Logout)'`},
			{"ranked", "", "QUERY is a question in words: print the sections that best answer it, best first (section index)", `librarian search --ranked 'how do I rotate refresh tokens'`},
			{"case-sensitive", "", "match case exactly (default: Unicode case folding)", "librarian search TTL --case-sensitive"},
			{"whole-word", "", "match whole words only: no letter, digit or _ right before or after (not with --regex)", "librarian search port --whole-word"},
			{"context", "N", "show N lines before and after each hit (0-20), merged as grep -C does", "librarian search token --context 2"},
			{"tags", "a,b", "search only docs carrying ANY of these tags (comma-separated, repeatable)", "librarian search token --tags security"},
			{"depth", "N", "path segments below FOLDER to descend, the file name counted: 1 = FOLDER's own docs (default: all)", "librarian search token backend --depth 1"},
			{"max-results", "N", "hit lines shown at most; 0 = no limit (default 50); with --ranked, sections (default 5)", "librarian search the --max-results 10"},
			{"json", "", "print the hits as one JSON object, by doc and section (docs/command-line.md); not with --context", "librarian search token --json"},
		}},
	{name: "tags", usage: "librarian tags [FOLDER] [flags]", summary: "list tags, most used first (list_tags)",
		about: "FOLDER (or --folder) counts only the docs of a folder inside the library.\n" +
			"Example: librarian tags backend --include-paths",
		flags: []flagDoc{
			{"folder", "FOLDER", "count only this folder's docs, relative to the library root (the same as the FOLDER operand)", "librarian tags --folder backend"},
			{"include-paths", "", "list each tag's docs under it", "librarian tags --include-paths"},
			{"depth", "N", "path segments below FOLDER to descend, the file name counted: 1 = FOLDER's own docs (default: all)", "librarian tags --depth 1"},
			{"json", "", "print the tags as one JSON object, each with its count and its docs' paths (docs/command-line.md)", "librarian tags --json"},
		}},
	{name: "index", usage: "librarian index [--to postgres://…] | --list | --prune [--older-than AGE] [--dry-run]", summary: "build or refresh the library's section index; list or prune the local index files",
		about: "Parses only the files whose stamp changed since the index last saw them, removes docs gone from\n" +
			"the library, and prints one summary line; on a terminal a progress line runs on stderr.\n" +
			"The index file is in LIBRARY_INDEX_DIR (--index-dir); LIBRARY_INDEX=off keeps it in memory;\n" +
			"--to (or LIBRARY_INDEX) postgres://… indexes into a PostgreSQL database a team's servers share.\n" +
			"--list and --prune need no library: they show or remove the index files in LIBRARY_INDEX_DIR, one\n" +
			"per library root ever served here (its root, size, last use, whether the root still exists).\n" +
			"Example: librarian index --root ./docs",
		flags: []flagDoc{
			{"to", "DSN", "the index to build, as LIBRARY_INDEX names it: a postgres:// URL (one writer at a time)", "librarian index --root ./docs --to postgres://indexer@db/docs"},
			{"list", "", "list the local index files: each one's library root, size, last use, and whether the root still exists", "librarian index --list"},
			{"prune", "", "remove the local index files whose library root is gone (and, with --older-than, those unused for that long); says what it removed", "librarian index --prune"},
			{"older-than", "AGE", "with --prune: also remove the index files unused for longer than AGE (30d, 36h)", "librarian index --prune --older-than 30d"},
			{"dry-run", "", "with --prune: say what would be removed, remove nothing", "librarian index --prune --dry-run"},
			{"json", "", "with --list or --prune: print the answer as one JSON object (docs/command-line.md)", "librarian index --list --json"},
		}},
	{name: "eval", usage: "librarian eval QUESTIONS.jsonl [--fixture ANSWERS.jsonl]", summary: "score a retrieval engine on questions (seed 004's eval)",
		about: "Runs each question through its skill against the engine: the local one over the library, or\n" +
			"LIBRARIAN_URL (--engine-url); prints each question's result, the score and the retrieval ranks;\n" +
			"exit 1 below a 90% pass rate, 2 when there is neither a library nor an engine.",
		flags: []flagDoc{
			{"fixture", "ANSWERS.jsonl", "answer from this file instead of an engine (checks the questions and the grader)", "librarian eval testdata/eval/questions.jsonl --fixture testdata/eval/answers.jsonl"},
		}},
	{name: "gaps", usage: "librarian gaps [--limit N] [--json]", summary: "list the gaps agents reported to the local engine (librarian_gap), newest first",
		about: "Reads the local engine's journal, kept in the section index's file (LIBRARY_INDEX_DIR), so it\n" +
			"lists what agents reported to every server of this library; LIBRARY_INDEX=off keeps nothing.\n" +
			"Example: librarian gaps --root ./docs",
		flags: []flagDoc{
			{"limit", "N", "show at most N gaps, newest first (default 0: all)", "librarian gaps --limit 20"},
			{"json", "", "print the gaps as one JSON object (docs/command-line.md)", "librarian gaps --json"},
		}},
}

// Version is printed by --version; the main package sets it.
var Version = "0.1.0"

func knownCommand(name string) bool {
	_, ok := lookupCommand(name)
	return ok
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// Usage prints the help for cmd ("" or "serve": the whole program).
func Usage(out io.Writer, cmd string) {
	c, ok := lookupCommand(cmd)
	if !ok || cmd == "" {
		usage(out)
		return
	}
	fmt.Fprintf(out, "usage: %s\n\n%s.\n", c.usage, strings.ToUpper(c.summary[:1])+c.summary[1:])
	if c.about != "" {
		fmt.Fprintf(out, "\n%s\n", c.about)
	}
	if len(c.flags) > 0 {
		fmt.Fprintln(out, "\nFlags (anywhere among the operands; a boolean also takes true or false as its next word):")
		for _, f := range c.flags {
			fmt.Fprintf(out, "  %-25s %s\n  %-25s e.g. %s\n", strings.TrimSpace("--"+f.name+" "+f.arg), f.text, "", f.example)
		}
	}
	fmt.Fprintln(out, "\nSettings flags (any command, before or after it):")
	fmt.Fprint(out, settingsHelp())
	if cmd == "serve" {
		fmt.Fprintln(out, "\nSettings by environment variable only:")
		fmt.Fprint(out, envHelp())
	}
}

func usage(out io.Writer) {
	fmt.Fprintln(out, "librarian: serves a markdown library to coding agents over MCP (stdio).")
	fmt.Fprintln(out, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(out, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(out, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(out, "  %s\n", c.usage)
	}
	fmt.Fprintln(out, "\nSettings flags (before or after the command; a flag beats its env var):")
	fmt.Fprint(out, settingsHelp())
	fmt.Fprintln(out, `  --version                 print the version
  --help                    this help; "librarian COMMAND --help" explains a command's flags`)
	fmt.Fprintln(out, "\nSettings by environment variable only (serving over HTTP):")
	fmt.Fprint(out, envHelp())
}

// envHelp lists the settings that only an env var sets (the HTTP server's
// tokens, origins and limits), each with its default.
func envHelp() string {
	var b strings.Builder
	for _, spec := range config.SettingSpecs {
		if len(spec.Flags) > 0 || len(spec.Env) == 0 {
			continue
		}
		about := spec.Help
		if spec.Default != "" {
			about += " (default " + spec.Default + ")"
		}
		fmt.Fprintf(&b, "  %-25s %s\n", strings.Join(spec.Env, ", ")+" "+spec.Value, about)
	}
	return b.String()
}

// settingsHelp lists the settings flags from config.SettingSpecs, each with
// its env vars and default.
func settingsHelp() string {
	var b strings.Builder
	for _, spec := range config.SettingSpecs {
		if len(spec.Flags) == 0 {
			continue
		}
		names := "--" + strings.Join(spec.Flags, ", --") + " " + spec.Value
		about := "env " + strings.Join(spec.Env, ", ")
		if spec.Default != "" {
			about += "; default " + spec.Default
		}
		fmt.Fprintf(&b, "  %-25s %s (%s)\n", names, spec.Help, about)
	}
	return b.String()
}
