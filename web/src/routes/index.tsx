import { createFileRoute } from "@tanstack/react-router";
import { AddressChecker } from "../components/checker/AddressChecker";

export const Route = createFileRoute("/")({
  component: HomePage,
});

function HomePage() {
  return (
    <>
      <Hero />
      <div className="mx-auto max-w-6xl px-4 py-10">
        <AddressChecker />
      </div>
    </>
  );
}

function Hero() {
  return (
    <section className="border-b border-slate-800 bg-gradient-to-b from-violet-950/40 to-transparent">
      <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-24">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">Vanity Addresses</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
          From memorable patterns to custom words - find your perfect crypto identity.
        </p>
      </div>
    </section>
  );
}
