package domain

// Commands names the library's operations as the reader of an answer runs
// them, so that a hint in a note or an error ("librarian ls shows every
// doc") names something the reader can run: the MCP tools for an agent,
// the commands for a person at the command line.
type Commands struct {
	List, Get, Search, Tags string
	// Shell is set for the command line: a selector to run is written as
	// a quoted argument of Get.
	Shell bool
}

// MCPTools are the operations as the library tools name them.
var MCPTools = Commands{List: "list_documents", Get: "get_documents", Search: "search_documents", Tags: "list_tags"}

// CLICommands are the operations as the command line names them.
var CLICommands = Commands{List: "librarian ls", Get: "librarian get", Search: "librarian search", Tags: "librarian tags", Shell: true}

// Selecting words how to ask for a selector (JSON): the selector itself
// for a tool's select list, or the whole command for a shell.
func (c Commands) Selecting(selector string) string {
	if c.Shell {
		return c.Get + " '" + selector + "'"
	}
	return selector
}

// OrTools is c, or MCPTools where c is the zero value.
func (c Commands) OrTools() Commands {
	if c == (Commands{}) {
		return MCPTools
	}
	return c
}

// Check names the command that lists every problem of a library: only the
// command line has it.
func (c Commands) Check() string { return "librarian check" }
