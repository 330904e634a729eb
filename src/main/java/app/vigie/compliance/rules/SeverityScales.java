package app.vigie.compliance.rules;

import java.util.Map;
import java.util.NavigableMap;

/** The ENISA severity scales of compliance-rules/severity.yaml: DPC, EI, CB and the levels' lower bounds. */
public record SeverityScales(String source, Map<String, Double> dpc, double dpcMin, double dpcMax,
        Map<String, Double> ei, Map<String, Map<String, Double>> cb, double malicious,
        NavigableMap<Double, String> levels) {
}
