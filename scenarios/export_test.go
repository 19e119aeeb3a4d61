package scenarios

// Exported for the external tests of this package.
var SavedEdits = SavedForHerd
