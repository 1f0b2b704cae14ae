//go:build unix && !darwin

package paths

// browserDirs maps browser names to their config folders under $HOME.
func browserDirs() [][2]string {
	return [][2]string{
		{"Google Chrome", ".config/google-chrome"},
		{"Google Chrome Beta", ".config/google-chrome-beta"},
		{"Chromium", ".config/chromium"},
		{"Microsoft Edge", ".config/microsoft-edge"},
		{"Brave", ".config/BraveSoftware/Brave-Browser"},
	}
}
