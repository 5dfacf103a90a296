// The opinion page format lives in the markdown layer (the index reads bank/opinions.md
// too, and must not import reflect); this re-export keeps the old import path working.
export {
  type Evidence,
  fmt2,
  type Opinion,
  opinionIdFor,
  parseOpinion,
  renderOpinion,
  sortEvidence,
} from "../markdown/opinions.js";
