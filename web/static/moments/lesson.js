// What a count missed, or claimed over and stood with, told once its Muggins window
// closed without a call.

import { html } from "../vendor/lit-html.js";
import { breakdown, hint } from "../parts.js";
import { t } from "../words.js";

export function lessonOf(lesson, ctx) {
  const said = lesson.over
    ? t("lesson_over", { name: lesson.name, actual: lesson.actual, excess: lesson.over })
    : t("lesson", { name: lesson.name, actual: lesson.actual, missed: lesson.missed });
  return html`<div class="lesson">${hint(lesson.rule ? `${said} ${lesson.rule}` : said)}${breakdown(lesson.show, { redraw: ctx.redraw })}</div>`;
}
