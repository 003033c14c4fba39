/**
 * The order Go's sort.SliceStable leaves a list in: insertion sort over blocks of 20, then blocks
 * merged pairwise with SymMerge (Kim and Kutzner's in-place stable merge).
 *
 * Any stable sort would do for a consistent comparator. Upstream's element-order comparator is not
 * one: it answers "less" whenever either element is missing from the reference order, and the
 * result then depends on which comparisons and swaps the algorithm makes. Reproducing the algorithm
 * keeps those results identical to upstream's, in O(n log² n) time whatever the comparator.
 */

type Less<T> = (a: T, b: T) => boolean;

const BLOCK = 20;

function swap<T>(data: T[], i: number, j: number): void {
  const t = data[i]!;
  data[i] = data[j]!;
  data[j] = t;
}

function insertionSort<T>(data: T[], a: number, b: number, less: Less<T>): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(data[j]!, data[j - 1]!); j--) swap(data, j, j - 1);
  }
}

function swapRange<T>(data: T[], a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) swap(data, a + i, b + i);
}

/** Exchanges the blocks data[a:m] and data[m:b] by block swaps. */
function rotate<T>(data: T[], a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(data, m - i, m, j);
      i -= j;
    } else {
      swapRange(data, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(data, m - i, m, i);
}

/** Index of the first element of data[lo:hi] for which `pred` is false, by bisection. */
function bisect(lo: number, hi: number, pred: (h: number) => boolean): number {
  while (lo < hi) {
    const h = (lo + hi) >>> 1;
    if (pred(h)) lo = h + 1;
    else hi = h;
  }
  return lo;
}

/** Merges the sorted runs data[a:m] and data[m:b] in place; requires a < m < b. */
function symMerge<T>(data: T[], a: number, m: number, b: number, less: Less<T>): void {
  if (m - a === 1) {
    // One element on the left: slide it to just before the first right element not less than it.
    const i = bisect(m, b, (h) => less(data[h]!, data[a]!));
    for (let k = a; k < i - 1; k++) swap(data, k, k + 1);
    return;
  }
  if (b - m === 1) {
    // One element on the right: slide it to before the first left element greater than it.
    const i = bisect(a, m, (h) => !less(data[m]!, data[h]!));
    for (let k = m; k > i; k--) swap(data, k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  const p = n - 1;
  const start = m > mid ? bisect(n - b, mid, (c) => !less(data[p - c]!, data[c]!)) : bisect(a, m, (c) => !less(data[p - c]!, data[c]!));
  const end = n - start;
  if (start < m && m < end) rotate(data, start, m, end);
  if (a < start && start < mid) symMerge(data, a, start, mid, less);
  if (mid < end && end < b) symMerge(data, mid, end, b, less);
}

/** Sorts `data` in place into the order Go's sort.SliceStable gives with the same `less`. */
export function goStableSort<T>(data: T[], less: Less<T>): void {
  const n = data.length;
  let blockSize = BLOCK;
  let a = 0;
  for (let b = blockSize; b <= n; b += blockSize) {
    insertionSort(data, a, b, less);
    a = b;
  }
  insertionSort(data, a, n, less);
  for (; blockSize < n; blockSize *= 2) {
    a = 0;
    for (let b = 2 * blockSize; b <= n; b += 2 * blockSize) {
      symMerge(data, a, a + blockSize, b, less);
      a = b;
    }
    if (a + blockSize < n) symMerge(data, a, a + blockSize, n, less);
  }
}
