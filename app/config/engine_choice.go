package config

// Which retrieval engine serves the engine tools (seed 004's ten): the
// local one, over the library itself, or a remote one over seed 004's HTTP
// contract.
const (
	EngineLocal  = "local"
	EngineRemote = "remote"
)

// EngineKinds are the values LIBRARIAN_ENGINE takes ("" is unset).
var EngineKinds = []string{"", EngineLocal, EngineRemote}

// EngineChoice picks the engine: LIBRARIAN_ENGINE when it is set; else a
// remote engine when LIBRARIAN_URL is set; else the local engine when there
// is a library (libraryExists: its root is a folder); else seed 004's
// remote default, DefaultEngineURL.
func (s Settings) EngineChoice(libraryExists bool) string {
	switch {
	case s.Engine != "":
		return s.Engine
	case s.EngineURL != "":
		return EngineRemote
	case libraryExists:
		return EngineLocal
	}
	return EngineRemote
}
