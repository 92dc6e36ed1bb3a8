// Package config is Librarian's settings: one table (SettingSpecs) declaring
// every flag and environment variable once, with its default and its check;
// LoadSettings reads them (a flag over its variable over the default) and
// Validate refuses a bad value naming the setting and where it came from.
// It also decides which engine the settings choose (EngineChoice). It imports
// the domain core and the standard library, no use case.
package config
