/**
 * The "destroyed" flame as an inline SVG: the 🔥 emoji rendered as an empty box where no emoji font is
 * installed. Decorative: the words next to it say what it means.
 */
export function FireIcon({ className = "inline-block h-4 w-4 align-[-0.125em] text-orange-400" }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" className={className} aria-hidden focusable="false" data-testid="fire-icon">
      <path
        fill="currentColor"
        d="M8.5 1c.3 2.2-.8 3.4-1.9 4.6C5.5 6.8 4 8.2 4 10.5 4 13 5.9 15 8 15s4-1.8 4-4.4c0-1.6-.7-2.8-1.5-3.7-.1 1-.6 1.8-1.4 2.2.3-1.9-.2-4.1-.6-5.1C8.3 3.2 8.6 2 8.5 1Z"
      />
    </svg>
  );
}
