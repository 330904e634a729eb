package app.vigie.compliance.severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import app.vigie.compliance.rules.SeverityScales;

/**
 * ENISA's severity of a personal data breach (2013): {@code SE = DPC x EI + CB}, on the scales of
 * compliance-rules/severity.yaml. Decision support for a controller, who decides and may override it.
 */
public final class EnisaSeverity {
    private final SeverityScales scales;

    public EnisaSeverity(SeverityScales scales) {
        this.scales = scales;
    }

    /**
     * What the assessor chose. {@code category}: the data's category (simple, behavioural, financial, sensitive),
     * the highest when several; {@code adjustment}: the contextual correction of DPC (volume, vulnerable persons,
     * public availability...), the result held within the scale; {@code ei}: negligible to maximum;
     * confidentiality, integrity, availability: a key of their scale ({@code none} when not lost).
     */
    public record Inputs(String category, double adjustment, String ei, String confidentiality, String integrity,
            String availability, boolean malicious) {
    }

    /** The score, its parts and its level (LOW, MEDIUM, HIGH, VERY_HIGH). */
    public record Assessment(double dpc, double ei, double cb, double score, String level) {
    }

    public Assessment assess(Inputs in) {
        List<String> problems = problems(in);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        double dpc = Math.max(scales.dpcMin(), Math.min(scales.dpcMax(),
                scales.dpc().get(in.category()) + in.adjustment()));
        double ei = scales.ei().get(in.ei());
        double cb = scales.cb().get("confidentiality").get(in.confidentiality())
                + scales.cb().get("integrity").get(in.integrity())
                + scales.cb().get("availability").get(in.availability())
                + (in.malicious() ? scales.malicious() : 0);
        // Scores are quarters: round away the binary fractions' noise before comparing with the bounds.
        double score = Math.round((dpc * ei + cb) * 10_000) / 10_000.0;
        return new Assessment(dpc, ei, cb, score, scales.levels().floorEntry(score).getValue());
    }

    /** Every problem of the inputs, named with the values allowed. */
    public List<String> problems(Inputs in) {
        List<String> p = new ArrayList<>();
        oneOf(p, "category", in.category(), scales.dpc());
        if (Double.isNaN(in.adjustment()) || Math.abs(in.adjustment()) > scales.dpcMax()) {
            p.add("'adjustment' must be between -" + scales.dpcMax() + " and " + scales.dpcMax());
        }
        oneOf(p, "ei", in.ei(), scales.ei());
        oneOf(p, "confidentiality", in.confidentiality(), scales.cb().get("confidentiality"));
        oneOf(p, "integrity", in.integrity(), scales.cb().get("integrity"));
        oneOf(p, "availability", in.availability(), scales.cb().get("availability"));
        return p;
    }

    private static void oneOf(List<String> p, String field, String value, Map<String, Double> scale) {
        if (value == null || !scale.containsKey(value)) {
            p.add("'" + field + "' must be one of " + String.join(", ", new TreeSet<>(scale.keySet()))
                    + (value == null ? "" : ", got '" + value + "'"));
        }
    }
}
