package app.vigie.notice;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.itextpdf.io.font.FontProgram;
import com.itextpdf.io.font.FontProgramFactory;
import com.itextpdf.io.font.PdfEncodings;
import com.itextpdf.kernel.colors.DeviceRgb;
import com.itextpdf.kernel.font.PdfFont;
import com.itextpdf.kernel.font.PdfFontFactory;
import com.itextpdf.kernel.geom.PageSize;
import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfPage;
import com.itextpdf.kernel.pdf.canvas.PdfCanvas;

/**
 * A long list at the end of a document: a title, its columns' headings and its rows, in the document's language, on
 * as many A4 pages as it takes, the title and the headings again on each. In the PDF it is drawn straight on the pages
 * (pdfHTML lays out a 5,000-row table in 5 to 10 s on the CI machine; this, in under 100 ms); in the page, it is a
 * table. Its words come from the caller (templates/notices/words.yaml), its values as they are. Plain Java.
 */
public record PdfAnnex(String id, String title, List<Column> columns, List<List<String>> rows) {

    /** A column: its heading, its share of the width, and whether its values are numbers (aligned right). */
    public record Column(String heading, float share, boolean number) {
    }

    public PdfAnnex {
        for (List<String> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("an annex row has " + row.size() + " values for "
                        + columns.size() + " columns");
            }
        }
    }

    // the page as templates/notices/base.html sets it (A4, margins 18, 16, 20 and 16 mm)
    static final PageSize PAGE = PageSize.A4;
    static final float TOP = mm(18);
    static final float SIDE = mm(16);
    static final float BOTTOM = mm(20);
    private static final float SIZE = 8;
    private static final float LEADING = 10.5f;
    private static final float PAD = 3;
    private static final DeviceRgb RULE = new DeviceRgb(0xbb, 0xbb, 0xbb);
    private static final DeviceRgb HEAD = new DeviceRgb(0xee, 0xee, 0xee);
    private static final DeviceRgb INK = new DeviceRgb(0x11, 0x11, 0x11);

    private static final FontProgram REGULAR = font("NotoSans-Regular.ttf");
    private static final FontProgram BOLD = font("NotoSans-Bold.ttf");

    static float mm(float mm) {
        return mm / 25.4f * 72;
    }

    /** The fonts of the pages pdfHTML makes (the ones it ships), embedded: a PDF/A embeds every font it uses. */
    private static FontProgram font(String name) {
        try (InputStream in = PdfAnnex.class.getResourceAsStream("/com/itextpdf/html2pdf/font/" + name)) {
            if (in == null) {
                throw new IllegalStateException("pdfHTML's font " + name + " is not on the class path");
            }
            return FontProgramFactory.createFont(in.readAllBytes(), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PdfFont regular() {
        return PdfFontFactory.createFont(REGULAR, PdfEncodings.IDENTITY_H,
                PdfFontFactory.EmbeddingStrategy.FORCE_EMBEDDED);
    }

    static PdfFont bold() {
        return PdfFontFactory.createFont(BOLD, PdfEncodings.IDENTITY_H, PdfFontFactory.EmbeddingStrategy.FORCE_EMBEDDED);
    }

    /** Draws the annex on new pages at the end of {@code pdf}, with these fonts (one pair per document). */
    void draw(PdfDocument pdf, PdfFont regular, PdfFont bold) {
        float width = PAGE.getWidth() - 2 * SIDE;
        float total = 0;
        for (Column c : columns) {
            total += c.share();
        }
        float[] x = new float[columns.size() + 1];
        x[0] = SIDE;
        for (int i = 0; i < columns.size(); i++) {
            x[i + 1] = x[i] + width * columns.get(i).share() / total;
        }
        List<List<String>> head = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            head.add(lines(columns.get(i).heading(), bold, x[i + 1] - x[i] - 2 * PAD));
        }
        int headLines = head.stream().mapToInt(List::size).max().orElse(1);
        PdfCanvas canvas = null;
        float y = 0;
        for (List<String> row : rows) {
            List<List<String>> cells = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                cells.add(lines(row.get(i), regular, x[i + 1] - x[i] - 2 * PAD));
            }
            float height = cells.stream().mapToInt(List::size).max().orElse(1) * LEADING + 2 * PAD;
            if (canvas == null || y - height < BOTTOM) {
                if (canvas != null) {
                    canvas.release();
                }
                canvas = new PdfCanvas(pdf.addNewPage(PAGE));
                y = top(canvas, bold, head, headLines, x);
            }
            cells(canvas, regular, cells, x, y);
            y -= height;
            canvas.setStrokeColor(RULE).setLineWidth(0.4f).moveTo(x[0], y).lineTo(x[x.length - 1], y).stroke();
        }
        if (canvas != null) {
            canvas.release();
        }
    }

    /** The title and the headings at the top of a page; returns where the rows start. */
    private float top(PdfCanvas canvas, PdfFont bold, List<List<String>> head, int headLines, float[] x) {
        float y = PAGE.getHeight() - TOP - 12;
        canvas.beginText().setFontAndSize(bold, 11).setFillColor(INK).setTextMatrix(x[0], y).showText(title)
                .endText();
        y -= 10;
        float height = headLines * LEADING + 2 * PAD;
        canvas.saveState().setFillColor(HEAD).rectangle(x[0], y - height, x[x.length - 1] - x[0], height).fill()
                .restoreState();
        cells(canvas, bold, head, x, y);
        canvas.setStrokeColor(RULE).setLineWidth(0.6f).moveTo(x[0], y - height).lineTo(x[x.length - 1], y - height)
                .stroke();
        return y - height;
    }

    private void cells(PdfCanvas canvas, PdfFont font, List<List<String>> cells, float[] x, float y) {
        canvas.beginText().setFontAndSize(font, SIZE).setFillColor(INK);
        for (int i = 0; i < cells.size(); i++) {
            float line = y - PAD - SIZE;
            for (String text : cells.get(i)) {
                float at = columns.get(i).number() ? x[i + 1] - PAD - font.getWidth(text, SIZE) : x[i] + PAD;
                canvas.setTextMatrix(at, line).showText(text);
                line -= LEADING;
            }
        }
        canvas.endText();
    }

    /** A value on lines no wider than {@code width}: cut at spaces, a word longer than a line cut where it must. */
    static List<String> lines(String text, PdfFont font, float width) {
        List<String> out = new ArrayList<>();
        String value = text == null ? "" : text;
        if (font.getWidth(value, SIZE) <= width) {
            out.add(value);
            return out;
        }
        StringBuilder line = new StringBuilder();
        for (String word : value.split(" ", -1)) {
            String candidate = line.isEmpty() ? word : line + " " + word;
            if (font.getWidth(candidate, SIZE) <= width) {
                line.setLength(0);
                line.append(candidate);
                continue;
            }
            if (!line.isEmpty()) {
                out.add(line.toString());
                line.setLength(0);
            }
            String rest = word;
            while (font.getWidth(rest, SIZE) > width) {
                int cut = rest.length() - 1;
                while (cut > 1 && font.getWidth(rest.substring(0, cut), SIZE) > width) {
                    cut--;
                }
                out.add(rest.substring(0, cut));
                rest = rest.substring(cut);
            }
            line.append(rest);
        }
        out.add(line.toString());
        return out;
    }

    /** The annex as a section of the page (escaped), for the document's HTML form. */
    public String html() {
        StringBuilder out = new StringBuilder(64 * rows.size() + 256);
        out.append("<section class=\"annex\" id=\"").append(escape(id)).append("\">\n<h2>").append(escape(title))
                .append("</h2>\n<table>\n<thead><tr>");
        for (Column c : columns) {
            out.append("<th>").append(escape(c.heading())).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : rows) {
            out.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                out.append(columns.get(i).number() ? "<td class=\"n\">" : "<td>").append(escape(row.get(i)))
                        .append("</td>");
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n</section>\n").toString();
    }

    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
