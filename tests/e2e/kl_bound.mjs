// A lower bound on a step's KL divergence from its export alone: the KL over
// a coarser partition of the vocabulary is never more than the whole one's
// (the data-processing inequality), and two step tables give that exactly.
// Shared by the Chromium and Firefox suites.

// KL(p ‖ q) over the ids both step tables list, each its own part, and one
// part for every other token.
export function coarseKl(pTop, qTop) {
  const q = new Map(qTop.map((c) => [c.id, c.raw_prob]));
  let kl = 0, pRest = 1, qRest = 1;
  for (const c of pTop) {
    if (!q.has(c.id)) continue;
    kl += c.raw_prob * Math.log(c.raw_prob / q.get(c.id));
    pRest -= c.raw_prob;
    qRest -= q.get(c.id);
  }
  return kl + (pRest > 0 && qRest > 0 ? pRest * Math.log(pRest / qRest) : 0);
}
