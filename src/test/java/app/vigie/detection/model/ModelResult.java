package app.vigie.detection.model;

import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What the naive model made of the records it received.
 *
 * @param findings  key: {@code deployment + "|" + rule + "|" + subject}
 * @param exposures key: {@code deployment + "|" + readerRequest + "|" + victimRequest}
 * @param late      {@code "stream|boot|seq"} of records refused as late (their seq lies in a range declared lost)
 * @param conflicts {@code "stream|boot|seq"} of records refused as conflicting duplicates
 * @param invalid   {@code "stream|boot|seq"} of records applied with no effect (impossible in the stream's state)
 */
public record ModelResult(
        SortedMap<String, ModelFinding> findings,
        SortedMap<String, ModelExposure> exposures,
        SortedSet<String> late,
        SortedSet<String> conflicts,
        SortedSet<String> invalid) {
}
