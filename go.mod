module github.com/browser-bridge/browser-bridge

go 1.26.8

require github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
