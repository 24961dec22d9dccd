import { Link } from "@tanstack/react-router";

export function NotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-3 text-slate-400">There is nothing at this address. Vanity addresses are rare; broken links should be too.</p>
      <Link to="/" className="mt-6 inline-block rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500">
        Back to Home
      </Link>
    </section>
  );
}
