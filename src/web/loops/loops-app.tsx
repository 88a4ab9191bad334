import { useEffect, useState } from "react";
import { CatalogPage } from "./catalog-page.tsx";
import { RunPage } from "./run-page.tsx";

/** The Loops face: `#/` the catalog, `#/runs/<id>` a run page. The hash keeps the token out of routing. */
export function LoopsApp() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  const runId = /^#\/runs\/([^/]+)$/.exec(hash)?.[1];
  return (
    <>
      <header className="page-header">
        <h1>Loops</h1>
        <nav aria-label="Pages">
          <a href="#/">Catalog</a>
        </nav>
      </header>
      {runId === undefined ? <CatalogPage /> : <RunPage runId={decodeURIComponent(runId)} />}
    </>
  );
}
