// The commands in flight, by id, each with the AbortController that
// command.cancel fires (see dispatch.js). Handlers that wait (for a load,
// a file chooser, the next CDP command of a batch) take ctx.signal and stop
// early; the others are short and finish by themselves.
export const running = new Map(); // id -> {controller, type}

// inFlight lists the verbs of the commands running now, for status: a
// command the daemon gave up on should not linger here.
export function inFlight() {
  return Array.from(running.values(), (c) => c.type);
}
