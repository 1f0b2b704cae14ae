package paths

// browserDirs: on Windows the browsers find native messaging hosts through
// the registry (internal/install), not in a folder, so there is no folder
// to list; the manifest itself lives in the state folder (Layout.HostManifest).
func browserDirs() [][2]string { return nil }
