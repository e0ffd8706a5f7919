// What a count missed, told once its Muggins window closed without a call.

import { html } from "../vendor/lit-html.js";
import { breakdown, hint } from "../parts.js";
import { t } from "../words.js";

export function lessonOf(lesson, ctx) {
  const said = t("lesson", { name: lesson.name, actual: lesson.actual, missed: lesson.missed });
  return html`<div class="lesson">${hint(lesson.rule ? `${said} ${lesson.rule}` : said)}${breakdown(lesson.show, { redraw: ctx.redraw })}</div>`;
}
