"""The report's document model: a list of blocks that becomes Markdown and HTML with the same content.

    doc = Doc()
    doc.h(2, "Summary"); doc.p("text with `code` and **bold**"); doc.table(frame, "caption", "file.csv")
    (out / "report.md").write_text(doc.markdown()); (out / "report.html").write_text(doc.html("title"))
"""

from __future__ import annotations

import html

import pandas as pd

CSS = ("body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}"
       # a wide table (the counters: 16 columns) scrolls inside its own box instead of running past the
       # page, and its headers wrap
       ".table-wrap{max-width:100%;overflow-x:auto;margin:1em 0}"
       "table{border-collapse:collapse;font-size:0.9em}th{white-space:normal}"
       "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}"
       "caption{text-align:left;font-style:italic;padding:4px 0}img{max-width:100%}"
       "pre{background:#f6f6f6;padding:0.8em;overflow-x:auto;font-size:0.85em}code{background:#f3f3f3}")


class Doc:
    """Headings, paragraphs, bullet lists, code blocks, tables (with the CSV they come from) and images."""

    def __init__(self):
        self.blocks: list[tuple] = []

    def h(self, level: int, text: str):
        self.blocks.append(("h", level, text))

    def p(self, text: str):
        self.blocks.append(("p", text))

    def bullets(self, items: list[str]):
        self.blocks.append(("ul", items))

    def code(self, text: str):
        self.blocks.append(("code", text))

    def table(self, frame: pd.DataFrame, caption: str | None = None, csv: str | None = None):
        self.blocks.append(("table", frame, caption, csv))

    def img(self, name: str, alt: str):
        self.blocks.append(("img", name, alt))

    # -- Markdown -----------------------------------------------------------------------------

    def markdown(self) -> str:
        return "\n\n".join(_MD[b[0]](*b[1:]) for b in self.blocks) + "\n"

    # -- HTML ---------------------------------------------------------------------------------

    def html(self, title: str) -> str:
        body = "\n".join(_HTML[b[0]](*b[1:]) for b in self.blocks)
        return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
                f"</title><style>{CSS}</style></head><body>\n" + body + "\n</body></html>\n")


def _md_table(frame: pd.DataFrame, caption: str | None, csv: str | None) -> str:
    lines = []
    if caption:
        lines.append(f"*{caption}*" + (f" (`{csv}`)" if csv else ""))
        lines.append("")
    cols = [str(c) for c in frame.columns]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("| " + " | ".join("---" for _ in cols) + " |")
    for _, r in frame.iterrows():
        lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in r) + " |")
    return "\n".join(lines)


_MD = {
    "h": lambda level, text: "#" * level + " " + text,
    "p": lambda text: text,
    "ul": lambda items: "\n".join(f"* {x}" for x in items),
    "code": lambda text: "```\n" + text.rstrip() + "\n```",
    "table": _md_table,
    "img": lambda name, alt: f"![{alt}]({name})",
}


def inline(text: str) -> str:
    """Escaped HTML of a line of text, with Markdown's `code` and **bold**."""
    t = html.escape(text)
    parts = t.split("`")
    t = "".join(f"<code>{x}</code>" if k % 2 else x for k, x in enumerate(parts))
    parts = t.split("**")
    return "".join(f"<b>{x}</b>" if k % 2 else x for k, x in enumerate(parts))


def _html_table(frame: pd.DataFrame, caption: str | None, csv: str | None) -> str:
    cap = f"<caption>{inline(caption)}" + (f' (<a href="{csv}">{csv}</a>)' if csv else "") + \
        "</caption>" if caption else ""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>"
                   for _, r in frame.iterrows())
    return f'<div class="table-wrap"><table>{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'


_HTML = {
    "h": lambda level, text: f"<h{level}>{inline(text)}</h{level}>",
    "p": lambda text: f"<p>{inline(text)}</p>",
    "ul": lambda items: "<ul>" + "".join(f"<li>{inline(x)}</li>" for x in items) + "</ul>",
    "code": lambda text: f"<pre>{html.escape(text.rstrip())}</pre>",
    "table": _html_table,
    "img": lambda name, alt: f'<p><img src="{name}" alt="{html.escape(alt)}"></p>',
}

__all__ = ["Doc", "inline"]
