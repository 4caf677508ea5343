// Correcting a turn (templates/games/correct.html), enhanced: the dice widget (dice.js) on the
// form's dice, filled with the turn's dice. Without this file the dice are a plain text input.
// As on the turn screen, the pad shows only while a die is empty: a tap on a die clears it for
// the pad to fill. A pad left under five dice would start a whole new roll at the next tap,
// wiping the four dice the player meant to keep.
(() => {
  "use strict";

  for (const scope of document.querySelectorAll("[data-correction-dice]")) {
    const pad = scope.querySelector("[data-pad]");
    const form = scope.closest("form");
    const hint = scope.querySelector("[data-tap-hint]"); // what to do instead, while no pad
    const roll = window.kosciDice.roll(scope, pad, show);
    window.kosciDice.pad(pad, (face) => {
      roll.add(face);
      show();
    });
    show();

    /** The pad for an empty die only; the fifth die moves a keyboard's focus on to the field
     * (or the button), not to the page. */
    function show() {
      const onPad = pad.contains(document.activeElement);
      pad.hidden = roll.full();
      hint.hidden = !pad.hidden;
      if (onPad && pad.hidden) {
        const next = form.querySelector("select") || form.querySelector('button[type="submit"]');
        next.focus();
      }
    }
  }
})();
