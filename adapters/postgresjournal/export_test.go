package postgresjournal

import "github.com/librarian/librarian/adapters/postgresdb"

// Version1 is the journal's first schema alone, for the migration test.
var Version1 = postgresdb.Migrations{Component: schema.Component, Steps: schema.Steps[:1]}
