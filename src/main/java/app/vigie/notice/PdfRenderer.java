package app.vigie.notice;

import java.awt.color.ColorSpace;
import java.awt.color.ICC_Profile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URL;
import java.util.Arrays;
import java.util.List;

import com.itextpdf.html2pdf.ConverterProperties;
import com.itextpdf.html2pdf.HtmlConverter;
import com.itextpdf.html2pdf.attach.impl.tags.SpanTagWorker;
import com.itextpdf.html2pdf.css.apply.ICssApplier;
import com.itextpdf.html2pdf.css.apply.impl.DefaultCssApplierFactory;
import com.itextpdf.html2pdf.css.apply.impl.SpanTagCssApplier;
import com.itextpdf.html2pdf.resolver.font.DefaultFontProvider;
import com.itextpdf.kernel.colors.DeviceRgb;
import com.itextpdf.kernel.font.PdfFont;
import com.itextpdf.kernel.pdf.PdfAConformance;
import com.itextpdf.kernel.pdf.PdfName;
import com.itextpdf.kernel.pdf.PdfOutputIntent;
import com.itextpdf.kernel.pdf.PdfPage;
import com.itextpdf.kernel.pdf.PdfString;
import com.itextpdf.kernel.pdf.PdfWriter;
import com.itextpdf.kernel.pdf.canvas.PdfCanvas;
import com.itextpdf.kernel.pdf.filespec.PdfFileSpec;
import com.itextpdf.layout.Document;
import com.itextpdf.layout.IPropertyContainer;
import com.itextpdf.layout.font.FontProvider;
import com.itextpdf.layout.font.FontSet;
import com.itextpdf.layout.properties.Property;
import com.itextpdf.layout.splitting.ISplitCharacters;
import com.itextpdf.pdfa.PdfADocument;
import com.itextpdf.styledxmlparser.node.IElementNode;
import com.itextpdf.styledxmlparser.resolver.resource.IResourceRetriever;

/**
 * HTML to PDF/A-3u: every font embedded (the Noto fonts pdfHTML ships; no standard, unembedded font is offered),
 * an sRGB output intent, the document's language and title, and its JSON embedded as an associated file (the
 * data the page shows, for machines). Plain Java.
 */
public final class PdfRenderer {
    private static final byte[] SRGB = ICC_Profile.getInstance(ColorSpace.CS_sRGB).getData();

    private PdfRenderer() {
    }

    /** Never split a line inside an identifier: at its hyphens, a reader (pdftotext) would join the halves. */
    private static final ISplitCharacters NEVER = (text, at) -> false;

    /**
     * {@code <span class="id">} (a request id, an incident id): its text is never split across lines, so it reads
     * back exactly (pdfHTML breaks after '-' in a narrow column whatever the CSS says).
     */
    private static final class IdentifierCss extends DefaultCssApplierFactory {
        @Override
        public ICssApplier getCustomCssApplier(IElementNode tag) {
            String cls = tag.getAttribute("class");
            if (!"span".equals(tag.name()) || cls == null || !Arrays.asList(cls.split("\\s+"))
                    .contains("id")) {
                return null;
            }
            return (context, styles, worker) -> {
                new SpanTagCssApplier().apply(context, styles, worker);
                if (worker instanceof SpanTagWorker span) {
                    for (IPropertyContainer e : span.getAllElements()) {
                        e.setProperty(Property.SPLIT_CHARACTERS, NEVER);
                    }
                }
            };
        }
    }

    /**
     * The documents embed nothing from outside: no file, no network address is ever read, whatever a statement or a
     * template says ({@code <img src="file:///etc/passwd">}, a stylesheet at an http:// URL). Their fonts come from
     * the jar, their data is in the page.
     */
    static final IResourceRetriever NOTHING = new IResourceRetriever() {
        @Override
        public InputStream getInputStreamByUrl(URL url) {
            return null;
        }

        @Override
        public byte[] getByteArrayByUrl(URL url) {
            return null;
        }
    };

    /**
     * The fonts pdfHTML ships (Noto), listed once: a provider per document over this set (its own cache of the fonts a
     * document uses) instead of reading the shipped fonts' names again for every document (about 25 ms each).
     */
    private static final DefaultFontProvider SHIPPED = new DefaultFontProvider(false, true, false);
    private static final FontSet FONTS = SHIPPED.getFontSet();
    private static final String DEFAULT_FAMILY = SHIPPED.getDefaultFontFamily();

    /** A file embedded in the PDF beside its JSON (PDF/A-3 associated file, relationship Data). */
    public record Attachment(String name, String description, String mime, byte[] data) {
    }

    /** The document alone, its {@code data} (the JSON) embedded. */
    public static byte[] render(String html, String title, String lang, Attachment data) {
        return render(html, title, lang, data, List.of(), List.of());
    }

    /**
     * The document, then its {@code annexes} on pages of their own, with {@code attachments} embedded beside its
     * {@code data} (the JSON, described in the document's language). With annexes, the pages are numbered here
     * ("n / N" at the foot of each, as base.html's CSS does for a document pdfHTML lays out alone, which does not count
     * the annexes' pages).
     */
    public static byte[] render(String html, String title, String lang, Attachment data,
            List<Attachment> attachments, List<PdfAnnex> annexes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PdfADocument pdf = new PdfADocument(new PdfWriter(out), PdfAConformance.PDF_A_3U,
                new PdfOutputIntent("Custom", "", "http://www.color.org", "sRGB IEC61966-2.1",
                        new ByteArrayInputStream(SRGB)));
        pdf.getCatalog().put(PdfName.Lang, new PdfString(lang));
        pdf.getDocumentInfo().setTitle(title);
        pdf.getDocumentInfo().setCreator("Vigie");
        attach(pdf, data);
        for (Attachment a : attachments) {
            attach(pdf, a);
        }
        ConverterProperties props = new ConverterProperties();
        props.setFontProvider(new FontProvider(FONTS, DEFAULT_FAMILY));
        props.setCssApplierFactory(new IdentifierCss());
        props.setResourceRetriever(NOTHING);
        if (annexes.isEmpty()) {
            HtmlConverter.convertToPdf(html, pdf, props);  // closes the document
            return out.toByteArray();
        }
        Document body = HtmlConverter.convertToDocument(html.replace("</head>", NO_PAGE_NUMBERS + "</head>"), pdf,
                props);
        body.flush();
        PdfFont regular = PdfAnnex.regular();
        PdfFont bold = PdfAnnex.bold();
        for (PdfAnnex annex : annexes) {
            annex.draw(pdf, regular, bold);
        }
        int pages = pdf.getNumberOfPages();
        for (int i = 1; i <= pages; i++) {
            PdfPage page = pdf.getPage(i);
            String number = i + " / " + pages;
            float x = page.getPageSize().getWidth() - PdfAnnex.SIDE - regular.getWidth(number, 8);
            new PdfCanvas(page.newContentStreamAfter(), page.getResources(), pdf).beginText()
                    .setFontAndSize(regular, 8).setFillColor(FOOT).setTextMatrix(x, PdfAnnex.BOTTOM / 2 - 3)
                    .showText(number).endText().release();
        }
        body.close();
        return out.toByteArray();
    }

    /** base.html's page numbers switched off where this class numbers the pages itself (with annexes). */
    private static final String NO_PAGE_NUMBERS = "<style>@page { @bottom-right { content: none; } }</style>";
    private static final DeviceRgb FOOT = new DeviceRgb(0x55, 0x55, 0x55);

    private static void attach(PdfADocument pdf, Attachment a) {
        PdfFileSpec spec = PdfFileSpec.createEmbeddedFileSpec(pdf, a.data(), a.description(), a.name(),
                new PdfName(a.mime()), null, PdfName.Data);
        pdf.addAssociatedFile(a.description(), spec);
    }
}
