package actions

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestTabLocksSerialisePerTab(t *testing.T) {
	var l tabLocks
	a, b := tabKey{"i", 1}, tabKey{"i", 2}
	unlockA, waited, err := l.lock(context.Background(), a, func(string) {})
	if err != nil || waited {
		t.Fatalf("first lock: %v %v", waited, err)
	}
	// Another tab is free.
	unlockB, _, err := l.lock(context.Background(), b, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	unlockB()
	// The same tab waits, says so, and gives up with its context.
	var heard []string
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := l.lock(ctx, a, func(s string) { heard = append(heard, s) }); err == nil || len(heard) != 1 {
		t.Fatalf("a held tab: err %v, progress %v", err, heard)
	}
	// Released, the next waiter gets it; in the end nothing is left.
	var wg sync.WaitGroup
	order := make(chan int, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, _, err := l.lock(context.Background(), a, func(string) {})
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			time.Sleep(time.Millisecond)
			u()
		}()
	}
	unlockA()
	wg.Wait()
	if len(order) != 3 {
		t.Fatalf("%d of 3 waiters ran", len(order))
	}
	if len(l.locks) != 0 || len(l.refs) != 0 {
		t.Fatalf("idle entries left: %v %v", l.locks, l.refs)
	}
}
