// Saving a file from the page: a Blob download that never leaves the browser.
export function downloadText(fileName: string, text: string, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the object URL is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
