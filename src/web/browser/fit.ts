// On a tablet the whole card must fit the screen: the lists below the plan lose their last items
// (grades first, then the School box's), then the whole School box, which can wait for a look at the
// portal, before the tests, messages and homework lose their last items; then whole lists (grades,
// messages, tests, homework: the count of unread messages stays in the card's head), rather than show a
// line cut in half.
// Items taken away early that fit again once a later list gave way come back.

interface Taken {
  list: HTMLElement;
  li: Element;
}

const STEPS: ReadonlyArray<[selector: string, keep: number]> = [
  ['.grades', 1],
  ['.school', 1],
  ['.school', 0],
  ['.tests', 1],
  ['.messages', 1],
  ['.homework', 1],
  ['.grades', 0],
  ['.messages', 0],
  ['.tests', 0],
  ['.homework', 0],
];

export function fit(card: HTMLElement): void {
  const info = card.querySelector<HTMLElement>('.info');
  if (!info || getComputedStyle(info).overflow !== 'hidden') return;
  const over = (): boolean => info.scrollHeight > info.clientHeight + 1;
  const taken: Taken[][] = [];
  for (let s = 0; s < STEPS.length && over(); s++) {
    const [selector, keep] = STEPS[s]!;
    let box = info.querySelector<HTMLElement>(selector);
    let group: Taken[] | null;
    while (box && over() && (group = shorten(info, box, keep))) {
      if (group.length) taken.push(group);
      box = info.querySelector<HTMLElement>(selector);
    }
  }
  // Back in the reverse order of their going, so a list keeps its order; once an item of a list
  // does not fit, the items after it stay away.
  const blocked: HTMLElement[] = [];
  for (let t = taken.length - 1; t >= 0; t--) {
    const group = taken[t]!;
    const list = group[0]!.list;
    if (blocked.indexOf(list) >= 0) continue;
    group.forEach((i) => list.appendChild(i.li));
    if (over()) {
      group.forEach((i) => list.removeChild(i.li));
      blocked.push(list);
    }
  }
}

/**
 * Takes a list's last items away until the lists get shorter (a wrapped row of grades goes whole),
 * keeping `keep` of them, and answers them; keep 0 takes the list with its heading (answers []). When
 * that cannot help, puts them back and answers null.
 */
function shorten(info: HTMLElement, box: HTMLElement, keep: number): Taken[] | null {
  if (keep === 0) {
    box.parentNode?.removeChild(box);
    return [];
  }
  const before = info.scrollHeight;
  const list = box.querySelector('ul');
  if (!list) return null;
  const items = box.querySelectorAll('li');
  const group: Taken[] = [];
  for (let n = items.length - 1; n >= keep; n--) {
    const li = items[n]!;
    group.unshift({ list, li });
    list.removeChild(li);
    if (info.scrollHeight < before) return group;
  }
  group.forEach((i) => list.appendChild(i.li));
  return null;
}
