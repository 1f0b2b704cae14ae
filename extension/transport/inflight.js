// The commands in flight on one connection, by id, each with the
// AbortController that command.cancel (or the connection dropping) fires.
// Handlers that wait (for a load, a file chooser, the next CDP command of a
// batch) take ctx.signal and stop early; the others are short and finish by
// themselves. Ids are the peer's, so each connection keeps its own: two
// transports may well use the same id at the same time.

// live: the registries of the open connections, for inFlight.
const live = new Set();

// createInflight returns the registry of one connection; drop() it when the
// connection closes.
export function createInflight() {
  const running = new Map(); // id -> {controller, type}
  const reg = {
    // track returns the AbortController of a new command. Only a command
    // with an id, no cancel itself, and not a repeat of an id still
    // running can be cancelled (a repeat keeps its own, untracked
    // controller); untrack() ends the entry.
    track(id, type) {
      const controller = new AbortController();
      const tracked = id != null && type !== "command.cancel" && !running.has(id);
      if (tracked) running.set(id, { controller, type });
      return { signal: controller.signal, untrack: () => { if (tracked) running.delete(id); } };
    },
    // cancel aborts the command id; it says whether one was running.
    cancel(id) {
      const c = running.get(id);
      if (c) c.controller.abort();
      return !!c;
    },
    // drop aborts every command of the connection (nobody will read their
    // replies) and forgets the registry.
    drop() {
      for (const c of running.values()) c.controller.abort();
      running.clear();
      live.delete(reg);
    },
    types: () => Array.from(running.values(), (c) => c.type),
  };
  live.add(reg);
  return reg;
}

// inFlight lists the verbs of the commands running now on every
// connection, for status: a command the daemon gave up on should not
// linger here.
export function inFlight() {
  return Array.from(live, (reg) => reg.types()).flat();
}
