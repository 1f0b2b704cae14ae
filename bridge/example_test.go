package bridge_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/browser-bridge/browser-bridge/bridge"
)

// The examples run against the real bridge that TestMain starts; site is
// the fixture server (httptest).

func ExampleDial() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	st, err := c.Status(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("connected:", st.Connected)
	// Output: connected: true
}

// A program on another machine reaches the bridge through a socket that
// ssh forwards (see the package documentation); nothing is started here.
func ExampleWithSocket() {
	ctx := context.Background()
	dir := filepath.Join(os.Getenv("HOME"), ".bb-B") // mode 0700
	c, err := bridge.Dial(ctx, bridge.WithSocket(filepath.Join(dir, "daemon.sock"), filepath.Join(dir, "secret")))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
}

func ExampleClient_Open() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tab, err := c.Open(ctx, bridge.OpenParams{URL: site + "/form"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{TabID: tab.TabID}})
	fmt.Println(tab.Title, tab.Owned)
	// Output: Sign up true
}

func ExampleClient_Extract() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	page, err := c.Extract(ctx, bridge.ExtractParams{URL: site + "/form", Include: []string{"headings", "links"}})
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{TabID: page.TabID}})
	fmt.Println(page.Title)
	for _, h := range page.Headings {
		fmt.Println(h.Level, h.Text)
	}
	for _, l := range page.Links {
		fmt.Println(l.Text)
	}
	// Output:
	// Sign up
	// 1 Sign up
	// 2 Elsewhere
	// Read the terms
	// FAQ
}

func ExampleClient_Click() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tab, err := c.Open(ctx, bridge.OpenParams{URL: site + "/form"})
	if err != nil {
		log.Fatal(err)
	}
	at := bridge.Target{TabID: tab.TabID}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: at})

	if _, err := c.Type(ctx, bridge.TypeParams{Target: at, Locator: bridge.Locator{Label: "Email"}, Value: "ada@example.com"}); err != nil {
		log.Fatal(err)
	}
	res, err := c.Click(ctx, bridge.ClickParams{Target: at, Locator: bridge.Locator{Role: "button", Name: "Send"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("clicked", res.Element.Tag)
	w, err := c.Wait(ctx, bridge.WaitParams{Target: at, Locator: bridge.Locator{Text: "Thanks,"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Element.Text)

	res, err = c.Click(ctx, bridge.ClickParams{Target: at, Locator: bridge.Locator{Text: "Read the terms"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Navigated, res.Title)
	// Output:
	// clicked button
	// Thanks, ada@example.com
	// true Terms
}

// A locator that matches nothing fails with ErrElementNotFound; TimeoutMs
// bounds how long the call looks for the element.
func ExampleError() {
	ctx := context.Background()
	c, err := bridge.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tab, err := c.Open(ctx, bridge.OpenParams{URL: site + "/form"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseTabs(ctx, bridge.CloseParams{Target: bridge.Target{TabID: tab.TabID}})

	_, err = c.Click(ctx, bridge.ClickParams{
		Target:  bridge.Target{TabID: tab.TabID, TimeoutMs: 2000},
		Locator: bridge.Locator{Text: "Unsubscribe"},
	})
	if errors.Is(err, bridge.ErrElementNotFound) {
		fmt.Println("no such element")
	}
	var e *bridge.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code)
	}
	// Output:
	// no such element
	// element_not_found
}
