/** Durations for people to read, as the sync log and `umbra status` print them: `44 s`, `12 min 5 s`, `3 h 12 min`. */

/** A whole number of seconds (fractions rounded) as the two largest units that matter. */
export function durationText(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${rest} s`;
  return `${rest} s`;
}
