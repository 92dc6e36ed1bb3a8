package cli

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/librarian/librarian/app/config"
)

// listFlag is a flag holding a comma list; repeating it adds to the list.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, config.SplitList(v)...); return nil }

// usageError words a command-line mistake of command cmd ("" for the
// program) the same way for every command, pointing at its --help.
func usageError(cmd, format string, args ...any) error {
	help, what := "librarian --help", "librarian"
	if cmd != "" && cmd != "librarian" && cmd != "serve" {
		help, what = "librarian "+cmd+" --help", cmd
	}
	return &commandLineError{msg: fmt.Sprintf("%s: %s (see %s)", what, fmt.Sprintf(format, args...), help)}
}

// wordFlagError rewords the flag package's errors for cmd: an unknown
// flag, a missing or bad value, each naming the flag as it is written
// (--name) and pointing at --help.
func wordFlagError(cmd string, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return usageError(cmd, "unknown flag -%s", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return usageError(cmd, "flag -%s needs a value", name)
	}
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		want := "want a whole number"
		if m[1] != "" {
			want = "want true or false"
		}
		return usageError(cmd, "--%s: %s, got %s", m[3], want, m[2])
	}
	if m := funcFlagValue.FindStringSubmatch(msg); m != nil {
		return usageError(cmd, "--%s: %s", m[1], m[2]) // the flag's own reason, which quotes the value
	}
	return usageError(cmd, "%s", strings.Replace(msg, " -", " --", 1))
}

// funcFlagValue matches the errors of flags whose own function refused
// the value (flag.Func): the flag and that function's reason.
var funcFlagValue = regexp.MustCompile(`^invalid value "[^"]*" for flag -+([\w-]+): (.*)$`)

// badFlagValue matches the flag package's "invalid value" errors (the
// Go 1.26 wording): boolean or not, the value, the flag.
var badFlagValue = regexp.MustCompile(`^invalid (boolean )?value ("[^"]*") for (?:flag )?-+([\w-]+): parse error$`)

// parseInterleaved parses fs (named after its command) over args that mix
// flags and operands in any order, returning the operands. A boolean flag
// also takes its value as the next word (`--include-code false`), as well
// as `--include-code=false`. An unknown flag, a missing or bad value is an
// error naming the flag and pointing at the command's --help.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	args, err := joinBoolValues(fs, args)
	if err != nil {
		return nil, err
	}
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, wordFlagError(fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if rest[0] == "--" {
			return append(operands, rest[1:]...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// joinBoolValues rewrites `--flag true|false` as `--flag=true|false` for
// fs's boolean flags (the flag package reads only the second form, and
// would take the word for an operand), and refuses unknown flags before
// the flag package words them its own way.
func joinBoolValues(fs *flag.FlagSet, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		name, hasValue := flagName(a)
		if name == "" || name == "help" || name == "h" {
			out = append(out, a)
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			return nil, usageError(fs.Name(), "unknown flag --%s", name)
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if !hasValue && i+1 < len(args) && isBoolWord(args[i+1]) {
				out = append(out, "--"+name+"="+args[i+1])
				i++
				continue
			}
			out = append(out, a)
			continue
		}
		out = append(out, a)
		if !hasValue && i+1 < len(args) {
			out = append(out, args[i+1]) // the value, even if it starts with '-'
			i++
		}
	}
	return out, nil
}

func isBoolWord(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false":
		return true
	}
	return false
}

// flagName returns the name of a -flag or --flag argument ("" if a is not
// a flag: an operand, "-" or a negative number) and whether it carries
// "=value".
func flagName(a string) (string, bool) {
	if len(a) < 2 || a[0] != '-' || a == "--" {
		return "", false
	}
	n := strings.TrimLeft(a, "-")
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		return "", false
	}
	name, _, has := strings.Cut(n, "=")
	return name, has
}

// folderOperand checks a FOLDER inside the library, as written after ls,
// search or tags: relative to the library root. An absolute path is
// refused with what to write instead, rather than silently read as
// relative.
func folderOperand(cmd, folder string) (string, error) {
	if folder != "/" && (strings.HasPrefix(folder, "/") || filepath.IsAbs(folder)) {
		return "", usageError(cmd, "folder %q is an absolute path, but a folder is relative to the library root "+
			"(e.g. backend/storage); to use %s as the library, write --root %s", folder, folder, folder)
	}
	return folder, nil
}

// folderFrom picks the FOLDER of ls, search or tags: the --folder flag or
// the operand after the first skip ones, not both, checked by
// folderOperand. "" is the whole library.
func folderFrom(cmd, flagValue string, operands []string, skip int) (string, error) {
	extra := operands[min(skip, len(operands)):]
	if len(extra) > 1 {
		return "", usageError(cmd, "takes at most one FOLDER, got %q", extra)
	}
	folder := flagValue
	if len(extra) == 1 {
		if flagValue != "" {
			return "", usageError(cmd, "FOLDER given twice, as --folder %q and as %q: keep one", flagValue, extra[0])
		}
		folder = extra[0]
	}
	return folderOperand(cmd, folder)
}

// given reports whether flag name was set on fs's command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
