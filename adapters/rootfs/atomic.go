package rootfs

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// staleTemp is the age past which a temporary file WriteAtomic left (its
// process was killed while writing) is removed by the next write.
const staleTemp = 10 * time.Minute

// WriteAtomic writes data to file (outside any library: caches beside the
// section index) through a temporary file in the same folder renamed over
// it, so a reader sees the old bytes or the new ones, never a part. Before
// writing it removes this file's temporary files older than staleTemp.
func WriteAtomic(file string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Dir(file), filepath.Base(file)
	if old, err := filepath.Glob(filepath.Join(dir, base+".*.tmp")); err == nil {
		for _, o := range old {
			if info, err := os.Stat(o); err == nil && time.Since(info.ModTime()) > staleTemp {
				os.Remove(o)
			}
		}
	}
	tmp, err := os.CreateTemp(dir, base+".*.tmp")
	if err != nil {
		return err
	}
	err = tmp.Chmod(perm)
	if err == nil {
		_, err = tmp.Write(data)
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
