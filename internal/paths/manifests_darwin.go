package paths

// browserDirs maps browser names to their config folders under $HOME.
func browserDirs() [][2]string {
	return [][2]string{
		{"Google Chrome", "Library/Application Support/Google/Chrome"},
		{"Google Chrome Beta", "Library/Application Support/Google/Chrome Beta"},
		{"Chromium", "Library/Application Support/Chromium"},
		{"Microsoft Edge", "Library/Application Support/Microsoft Edge"},
		{"Brave", "Library/Application Support/BraveSoftware/Brave-Browser"},
	}
}
