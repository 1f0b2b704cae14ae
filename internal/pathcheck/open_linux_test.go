package pathcheck

func noOpenat2Swap(v bool) bool { return noOpenat2.Swap(v) }
