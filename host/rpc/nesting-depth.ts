/**
 * How deep a request's params may nest. Validators walk params recursively, so a parameter nested thousands of levels
 * deep would exhaust the stack; it is refused first, with a walk that uses no recursion and stops at the bound.
 */
export const MAX_PARAMS_DEPTH = 64;

/** Whether `value` has arrays or objects nested more than `limit` levels deep (the value itself is level 1). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
