// The question of "ask before irreversible steps" (handlers/ask.js): over
// the page in a frame, or in a small window of the extension's own
// (?window=1), with Allow and Decline (ui/answerbox.js).
import { $, answerBox } from "./answerbox.js";

const inWindow = new URLSearchParams(location.search).has("window");

const HEADINGS = {
  submit: "Browser Bridge · send a form?",
  payment: "Browser Bridge · a payment?",
  navigation: "Browser Bridge · another site?",
};

if (inWindow) {
  document.body.classList.add("window");
  $("move").hidden = true;
}

answerBox({
  buttons: { allow: "allowed", decline: "declined" },
  answered: (outcome) => (outcome === "allowed" ? "Allowed: your agent goes on." : "Declined: your agent has been told, and nothing was done."),
  gone: "This question has ended.",
  alreadyGone: "This question has already ended.",
  leftTitle: "With no answer by then, the answer is no",
  shown: (s) => {
    $("heading").textContent = HEADINGS[s.ask] || "Browser Bridge · your agent asks";
    if (s.detail) {
      $("detail").textContent = s.detail;
      $("detail").hidden = false;
    }
  },
  ended: () => {
    $("detail").hidden = true;
    if (inWindow) setTimeout(() => window.close(), 1500);
  },
});
