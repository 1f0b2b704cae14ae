package bridge_test

import (
	"context"
	"fmt"
	"log"

	"github.com/browser-bridge/browser-bridge/bridge"
)

// Hive's low-level verbs: a context (a tab group of the program's own),
// raw CDP in its tab, and the context closed again.
func ExampleClient_CDP() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	info, err := c.ContextCreate(ctx, "example-agent", nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.CDP(ctx, info.TabID, "Page.navigate", map[string]any{"url": site + "/dom"}, nil); err != nil {
		log.Fatal(err)
	}
	var eval struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	err = c.CDP(ctx, info.TabID, "Runtime.evaluate", map[string]any{
		"expression":    `new Promise(r => document.readyState === "complete" ? r(document.title) : addEventListener("load", () => r(document.title)))`,
		"awaitPromise":  true,
		"returnByValue": true,
	}, &eval)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(eval.Result.Value)
	tabs, err := c.TabList(ctx, info.GroupID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tabs), "tab in the group")
	done, err := c.ContextDestroy(ctx, info.GroupID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("closed", done.ClosedTabs)
	// Output:
	// DOM
	// 1 tab in the group
	// closed 1
}
