// The dice widget (templates/_dice.html), enhanced: the five dice as buttons ([data-slots], tap one
// to clear it) fed by a 1–6 pad ([data-pad]). The typed input [data-dice-input] stays the value
// the form sends, so without this file the widget is a plain text input. The pages build on it:
// turn.js (the pencil marks) and arbiter.js (several hands, one pad).
//
// Keyboard: the pad takes the keys 1–6, a die takes Delete or Backspace (as well as Enter and
// Space, like any button); clearing a die puts the focus back on the pad.
// Screen readers: each die is a button named with its number and face ("Kość nr 2: 5"), and a
// polite live region says what a tap on the pad or on a die changed, since the focus stays put.
// Those texts come in the page's language ("dice.*" of JS_STRINGS, tracker/i18n.py).
window.kosciDice = (() => {
  "use strict";

  const COUNT = 5;
  const t = window.kosciText || ((key) => key); // app.js: texts in the page's language

  /** The text `key` with its %(name)s placeholders filled from `values`. */
  function text(key, values) {
    return t(key).replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  /** Five dice from typed text: its digits 1–6 in order, then empty dice (null). */
  function parse(text) {
    const digits = Array.from(text.replace(/[^1-6]/g, "").slice(0, COUNT), Number);
    return Array.from({ length: COUNT }, (_, i) => digits[i] ?? null);
  }

  /** What is wrong with typed text (its text, in the page's language), or null: a digit no
   * die shows, or more than five dice. Either way the typed roll is no roll: a sixth digit
   * is a slip of the finger somewhere in the five, not one to drop. (Other characters, such as
   * "6-6-6-1-2", only separate the dice.) */
  function problem(typed) {
    const bad = typed.match(/[07-9]/);
    if (bad) return text("dice.bad_digit", { digit: bad[0] });
    const count = typed.replace(/[^1-6]/g, "").length;
    return count > COUNT ? text("dice.too_many", { count }) : null;
  }

  /**
   * One roll: the widget inside `root` ([data-dice]), fed by `pad`. `changed(roll, how)` runs
   * after a die is cleared (how = "clear") or the dice are typed ("typed"); a face from the pad
   * is the page's to place (roll.add), since a pad may serve several rolls.
   */
  function roll(root, pad, changed) {
    const input = root.querySelector("[data-dice-input]");
    const slots = root.querySelector("[data-slots]");
    const self = {
      root,
      dice: parse(input.value),
      wrong: problem(input.value), // typed dice that are no roll: never full, said under them
      full: () => !self.wrong && self.dice.every((d) => d !== null),
      /** The face in the first empty die; on a full roll, the first die of a new roll. */
      add(face) {
        if (!self.dice.includes(null)) self.dice.fill(null);
        const index = self.dice.indexOf(null);
        self.dice[index] = face;
        sync();
        const added = text("dice.added", { number: index + 1, face });
        say(self.full() ? `${added} ${text("dice.all_five", { dice: self.dice.join("-") })}` : added);
      },
    };
    const said = document.createElement("p");
    said.className = "visually-hidden";
    said.setAttribute("role", "status");
    said.dataset.diceSaid = "";

    function say(text) {
      said.textContent = text;
    }

    function sync() {
      input.value = self.dice.filter((d) => d !== null).join("");
      self.wrong = null; // the dice on screen, as the pad and the slots made them
      render();
    }

    // The typed roll's problem, under the input (as the server puts its error there).
    const error = document.createElement("p");
    error.className = "error";
    error.id = `${input.id || "dice"}-typed-error`;
    error.hidden = true;
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    const field = input.closest(".field") || input.parentElement;
    const refusedByServer = field.classList.contains("has-error");

    function showProblem() {
      error.textContent = self.wrong || "";
      error.hidden = !self.wrong;
      // The page lays a field with an error out as the server's (its line of its own, labelled).
      field.classList.toggle("has-error", refusedByServer || Boolean(self.wrong));
      const ids = self.wrong ? [...described, error.id] : described;
      if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
      else input.removeAttribute("aria-describedby");
      if (self.wrong) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }

    function render() {
      showProblem();
      slots.querySelectorAll("button").forEach((button, i) => {
        const die = self.dice[i];
        button.textContent = die ?? "";
        button.classList.toggle("is-empty", die === null);
        button.setAttribute(
          "aria-label",
          die === null
            ? text("dice.empty", { number: i + 1 })
            : text("dice.filled", { number: i + 1, face: die }),
        );
      });
    }

    field.append(error);
    for (const el of root.querySelectorAll("[data-no-js]")) el.hidden = true;
    slots.replaceChildren(
      ...Array.from({ length: COUNT }, (_, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "dice-slot";
        button.addEventListener("click", () => {
          self.dice[i] = null;
          sync();
          say(text("dice.removed", { number: i + 1 }));
          changed(self, "clear");
          if (!pad.hidden) pad.querySelector("button").focus();
        });
        button.addEventListener("keydown", (event) => {
          if (event.key === "Delete" || event.key === "Backspace") {
            event.preventDefault();
            button.click();
          }
        });
        return button;
      }),
    );
    slots.hidden = false;
    slots.after(said);
    input.addEventListener("input", () => {
      self.dice = parse(input.value);
      self.wrong = problem(input.value);
      render();
      changed(self, "typed");
    });
    render();
    return self;
  }

  /** Shows the pad; `tapped(face)` runs for a tapped face or a key 1–6 pressed on the pad. */
  function pad(el, tapped) {
    el.hidden = false;
    el.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-face]");
      if (button) tapped(Number(button.dataset.face));
    });
    el.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-6]$/.test(event.key)) return;
      event.preventDefault();
      tapped(Number(event.key));
    });
    return el;
  }

  return { roll, pad };
})();
