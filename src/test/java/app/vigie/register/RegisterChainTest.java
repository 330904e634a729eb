package app.vigie.register;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The hash chain alone: a valid chain, then each way of breaking it, named at the first broken entry. */
class RegisterChainTest {

    static List<RegisterChain.Link> chain(String... bodies) {
        List<RegisterChain.Link> out = new ArrayList<>();
        String previous = RegisterChain.GENESIS;
        for (int i = 0; i < bodies.length; i++) {
            String hash = RegisterChain.hash(previous, bodies[i]);
            out.add(new RegisterChain.Link(i + 1, bodies[i], previous, hash));
            previous = hash;
        }
        return out;
    }

    static RegisterChain.Verdict check(List<RegisterChain.Link> links) {
        RegisterChain.Checker c = new RegisterChain.Checker();
        for (RegisterChain.Link l : links) {
            if (!c.accept(l)) {
                break;
            }
        }
        return c.verdict();
    }

    @Test
    void aWholeChainIsValidAndItsHeadIsTheLastHash() {
        List<RegisterChain.Link> links = chain("{\"a\":1}", "{\"b\":\"é €\"}", "{\"c\":3}");
        RegisterChain.Verdict v = check(links);
        assertThat(v.valid()).isTrue();
        assertThat(v.entries()).isEqualTo(3);
        assertThat(v.head()).isEqualTo(links.get(2).hash()).hasSize(64);
        assertThat(check(List.of()).valid()).isTrue();
        assertThat(RegisterChain.hash(RegisterChain.GENESIS, "x")).isNotEqualTo(RegisterChain.hash("1".repeat(64),
                "x"));
    }

    @Test
    void aChangedTextARemovedEntryAndASwapAreEachFoundAtTheFirstBrokenEntry() {
        List<RegisterChain.Link> links = chain("one", "two", "three", "four");
        List<RegisterChain.Link> changed = new ArrayList<>(links);
        RegisterChain.Link l = links.get(1);
        changed.set(1, new RegisterChain.Link(l.id(), "TWO", l.prevHash(), l.hash()));
        assertThat(check(changed).firstBroken()).isEqualTo(2);
        assertThat(check(changed).reason()).contains("changed");

        List<RegisterChain.Link> removed = new ArrayList<>(links);
        removed.remove(1);
        assertThat(check(removed).firstBroken()).isEqualTo(3);
        assertThat(check(removed).reason()).contains("removed");

        List<RegisterChain.Link> swapped = new ArrayList<>(links);
        swapped.set(1, links.get(2));
        swapped.set(2, links.get(1));
        assertThat(check(swapped).firstBroken()).isEqualTo(3);

        List<RegisterChain.Link> rehashed = new ArrayList<>(links);
        rehashed.set(3, new RegisterChain.Link(4, "FOUR", links.get(2).hash(),
                RegisterChain.hash(links.get(2).hash(), "FOUR")));
        assertThat(check(rehashed).valid()).as("a rewritten last entry with its hash redone is a valid chain: "
                + "the published head is what proves it").isTrue();
        assertThat(check(rehashed).head()).isNotEqualTo(check(links).head());
    }
}
