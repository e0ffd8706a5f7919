// The line under a moment's title that says where the deal stands.

import { t } from "../words.js";

// "Deal 3: Ann deals, the crib is theirs."
export function dealLead(game) {
  const dealer = game.seats[game.dealer];
  const side = game.sides[dealer.side].name;
  return game.seats.length === 4
    ? t("deal_lead_team", { deal: game.deal, dealer: dealer.name, side })
    : t("deal_lead", { deal: game.deal, dealer: dealer.name });
}
