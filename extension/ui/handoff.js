// The hand-off frame over the page (see handlers/handoff.js): the
// message, and Done and Cancel for the user (ui/answerbox.js).
import { answerBox } from "./answerbox.js";

answerBox({
  buttons: { done: "done", cancel: "cancelled" },
  answered: (outcome) => (outcome === "done" ? "Thanks: your agent takes over again." : "Cancelled: your agent has been told."),
  gone: "This hand-off has ended.",
  alreadyGone: "This hand-off has already ended.",
  leftTitle: "Your agent waits this long for you, then takes the tab back",
});
