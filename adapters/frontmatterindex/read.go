package frontmatterindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"time"

	"github.com/librarian/librarian/adapters/rootfs"
)

// chunkSize bounds the files one worker reads through one folder handle, so
// a single large folder is still read in parallel.
const chunkSize = 128

// refresh brings the cache up to date with the candidates (sorted by
// path): a file whose stamp is unchanged, and was not racy when read, keeps
// its metadata; any other is read again, in parallel. The cache then holds
// exactly the candidates that could be read, so removed files are forgotten.
func (ix *Index) refresh(ctx context.Context, found []candidate) ([]note, error) {
	ix.loadMetaCache()
	entries := make([]*cached, len(found))
	var stale []int
	for i, c := range found {
		if e := ix.files[c.path]; e != nil && e.stamp == c.stamp && e.readAt.Sub(e.stamp.ModTime) > ix.racy {
			entries[i] = e
			continue
		}
		stale = append(stale, i)
	}
	// Chunks of stale files of one folder: each is read through one handle
	// on that folder, so opening a file costs one lookup, not one per
	// path segment.
	var chunks [][]int
	for lo := 0; lo < len(stale); {
		hi := lo + 1
		dir := folderOf(found[stale[lo]].path)
		for hi < len(stale) && hi-lo < chunkSize && folderOf(found[stale[hi]].path) == dir {
			hi++
		}
		chunks = append(chunks, stale[lo:hi])
		lo = hi
	}
	errs := make([]error, len(found))
	// While watching, the bytes read are kept for ReadFile: change
	// notification tells when they stop being current.
	var kept []keptFile
	if ix.watch != nil {
		kept = make([]keptFile, len(found))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(ix.workers, len(chunks)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(chunks) || ctx.Err() != nil {
					return
				}
				ix.readChunk(found, chunks[k], entries, kept, errs)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files := make(map[string]*cached, len(found))
	var notes []note
	for i, e := range entries {
		switch err := errs[i]; {
		case err == nil:
			files[found[i].path] = e
		case errors.Is(err, fs.ErrNotExist):
			// Removed since the walk saw it: gone, as it will be next time.
		default:
			notes = append(notes, note{found[i].path, ix.leftOutNote(found[i].path, err)})
		}
	}
	changed := len(stale) > 0 || len(files) != len(ix.files)
	ix.files = files
	if changed {
		ix.saveMetaCache()
	}
	if kept != nil {
		ix.keep(found, kept)
	}
	return notes, nil
}

// readChunk reads the files at indexes idx of found, all in one folder,
// keeping their bytes in kept when it is not nil.
func (ix *Index) readChunk(found []candidate, idx []int, entries []*cached, kept []keptFile, errs []error) {
	folder, err := ix.root.OpenRoot(folderName(folderOf(found[idx[0]].path)))
	if err != nil {
		for _, i := range idx {
			errs[i] = err
		}
		return
	}
	defer folder.Close()
	for _, i := range idx {
		c := found[i]
		// A symlink is resolved from the library root: from its folder it
		// may rightly climb out (docs/alias.md -> ../other/real.md).
		from, name := folder, path.Base(c.path)
		if c.symlink {
			from, name = ix.root, c.path
		}
		// A shared file may change with no event in its folder: its bytes
		// are never kept.
		var data []byte
		entries[i], data, errs[i] = ix.readMeta(from, name, kept != nil && !c.shared)
		if data != nil {
			kept[i] = keptFile{data: data, stamp: entries[i].stamp}
		}
	}
}

func folderName(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// readMeta reads one file's frontmatter and first heading through root,
// with the stamp of the bytes read. With keep, it also returns the bytes
// when they are the whole file and at most keepMaxFile long.
func (ix *Index) readMeta(root *os.Root, name string, keep bool) (*cached, []byte, error) {
	ix.metaReads.Add(1)
	readAt := time.Now()
	f, err := ix.openFile(root, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("not a regular file")
	}
	if err := ix.access.Check(info); err != nil {
		return nil, nil, err
	}
	data, err := readAllInto(make([]byte, 0, min(info.Size(), maxMetaBytes)+1), io.LimitReader(f, maxMetaBytes))
	if err != nil {
		return nil, nil, err
	}
	c := &cached{stamp: rootfs.Stamp(info), readAt: readAt, meta: parseMeta(data)}
	if !keep || int64(len(data)) != info.Size() || len(data) > keepMaxFile {
		data = nil
	}
	return c, data, nil
}

// readAllInto is io.ReadAll into a buffer sized from the file's stat.
func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
