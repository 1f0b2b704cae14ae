module github.com/browser-bridge/browser-bridge

go 1.26.8
