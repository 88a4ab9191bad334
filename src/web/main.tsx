import { createRoot } from "react-dom/client";
import "./styles.css";
import { ExecutionPage } from "./execution/execution-page.tsx";
import { LoopsApp } from "./loops/loops-app.tsx";

/** One script for both faces: the HTML page says which one it is (`<body data-face>`). */
const root = document.getElementById("root");
if (root !== null) {
  createRoot(root).render(document.body.dataset.face === "loops" ? <LoopsApp /> : <ExecutionPage />);
}
