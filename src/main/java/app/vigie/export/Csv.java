package app.vigie.export;

import java.util.List;

import jakarta.ws.rs.core.Response;

/** CSV for spreadsheets: RFC 4180 quoting, and a cell a spreadsheet would read as a formula prefixed with a quote. */
public final class Csv {
    private Csv() {
    }

    /** A CSV document and the file name it is downloaded under (the same from the API and from the pages). */
    public record Export(String fileName, String text) {
    }

    /** A CSV document as a download. */
    public static Response attachment(Export csv) {
        return Response.ok(csv.text()).type("text/csv; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"" + csv.fileName() + "\"").build();
    }

    public static void row(StringBuilder out, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            String v = cells.get(i) == null ? "" : cells.get(i);
            if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
                v = "'" + v;
            }
            if (i > 0) {
                out.append(',');
            }
            if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
                out.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                out.append(v);
            }
        }
        out.append("\r\n");
    }
}
