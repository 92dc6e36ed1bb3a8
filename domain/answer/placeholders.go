package answer

import (
	"fmt"
	"strings"

	"github.com/librarian/librarian/domain/wording"
)

// The one-line texts of a get_documents answer that stand where something
// is not returned (code blocks: CodePlaceholder, in fence.go).

// NothingReturned is the answer's text when no chunk is in it.
const NothingReturned = "(nothing returned)"

// ReturnedAbove stands for lines from..to of a chunk that earlier chunks
// (owners, e.g. "select[0]") returned.
func ReturnedAbove(from, to int, owners []string) string {
	return fmt.Sprintf("[%s already returned above (%s)]", wording.LineSpan(from, to), strings.Join(owners, ", "))
}

// LineCut follows the part of line k that a chunk cut inside it returns:
// kept of its total bytes. The rest of a line is in no selector smaller than
// the line, so it says what budget the whole line needs.
func LineCut(k, kept, total, budget, lineTokens int) string {
	return fmt.Sprintf("[L%d cut after %d of its %d bytes: the line alone is over max_tokens=%d; to read it whole, ask for lines [%d, %d] with max_tokens of at least %d, or 0 (no limit)]",
		k, kept, total, budget, k, k, lineTokens)
}

// ImageLabel names an image in placeholders: its id (a standard image's
// library path or URL), then " — " and its caption (alt text) on one line
// (at most 200 characters) when it has one.
func ImageLabel(id, caption string) string {
	if c := wording.OneLine(caption, 200); c != "" {
		return id + " — " + c
	}
	return id
}

// ImageUnknown stands for a stub whose image is not in the image index.
func ImageUnknown(id string) string { return fmt.Sprintf("[image unknown: %s (see Notes)]", id) }

// ImageOmitted stands for an image not asked for (include_images=false).
func ImageOmitted(label string) string { return "[image omitted: " + label + "]" }

// ImageRemote stands for a standard image whose URL is http(s): such an
// image is never fetched, whatever include_images says.
func ImageRemote(label string) string {
	return "[image omitted: " + label + " (remote, never fetched)]"
}

// ImageData stands for a standard image whose destination is a data: URI:
// its bytes are in the doc's line already, and are not sent again as an
// image.
func ImageData(label string) string {
	return "[image omitted: " + label + " (a data: URI, not sent as an image)]"
}

// ImageShownAbove stands for an image the call already sent at line at of
// the same doc.
func ImageShownAbove(id string, at int) string {
	return fmt.Sprintf("[image %s: shown above, at L%d]", id, at)
}

// ImageTooLarge stands for an image over the per-image limit.
func ImageTooLarge(label string, limit int64) string {
	return fmt.Sprintf("[image omitted: %s (larger than the %s limit, LIBRARY_MAX_IMAGE_BYTES)]", label, FormatBytes(limit))
}

// ImageUnavailable stands for an image that could not be read or is not
// an image; a note says why.
func ImageUnavailable(label string) string {
	return fmt.Sprintf("[image unavailable: %s (see Notes)]", label)
}

// ImageOverAnswerLimit stands for an image past the image bytes one answer
// may carry (total: the bytes already carried).
func ImageOverAnswerLimit(label string, total int64) string {
	return fmt.Sprintf("[image omitted: %s (this answer already carries %s of images, the limit for one answer: ask for this doc again with include_images)]", label, FormatBytes(total))
}

// FormatBytes writes a byte count as seed 000 does ("5 MB", MB = 2^20).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d %s", n, wording.Plural(int(n), "byte", "bytes"))
	}
}
