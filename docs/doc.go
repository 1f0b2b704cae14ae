// Package docs holds the user documentation beside the README; its only Go
// is tests: every relative link in them resolves, and the README names
// every action.
package docs
