package frontmatterindex

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

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
const metaCacheVersion = 1

// metaCacheFile is the cache file's content (encoding/gob).
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
		err = gob.NewDecoder(bytes.NewReader(raw)).Decode(&f)
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
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	err = tmp.Chmod(0o644) // as the section index beside it
	if err == nil {
		_, err = tmp.Write(buf.Bytes())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}
