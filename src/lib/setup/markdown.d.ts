/** Markdown imported with `{ type: "text" }` (the embedded SKILL.md) is its text. */
declare module "*.md" {
  const text: string;
  export default text;
}
