import { useEffect, useState } from "react";

/** `value` once it has stopped changing for `ms` milliseconds (search boxes, the fee preview). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
