// Package docs holds the user documentation beside the README; its only Go
// is the test that every relative link in them resolves.
package docs
