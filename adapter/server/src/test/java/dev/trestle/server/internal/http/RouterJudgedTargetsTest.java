package dev.trestle.server.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RouterJudgedTargetsTest {

  @Test
  void wellFormedTargetsPassUnchanged() {
    for (String target :
        new String[] {
          "/devstoreaccount1/Tables",
          "/a/t(PartitionKey='a%2Fb',RowKey='%C3%A9%20')",
          "/a/t()?$filter=A%20eq%20'%00'",
          "http://host:80/a/t%41",
          "*"
        }) {
      assertThat(RouterJudgedTargets.passable(target)).isSameAs(target);
    }
  }

  @Test
  void escapesJettyRefusesBecomeAnInvalidUtf8Byte() {
    assertThat(RouterJudgedTargets.passable("/a/t(RowKey='%00')")).isEqualTo("/a/t(RowKey='%FF')");
    assertThat(RouterJudgedTargets.passable("/a/%zz")).isEqualTo("/a/%FFzz");
    assertThat(RouterJudgedTargets.passable("/a/b%")).isEqualTo("/a/b%FF");
    assertThat(RouterJudgedTargets.passable("/a/b%4?x=%00")).isEqualTo("/a/b%FF4?x=%00");
    assertThat(RouterJudgedTargets.passable("/x%00y%2")).isEqualTo("/x%FFy%FF2");
    assertThat(RouterJudgedTargets.passable("http://h/a%00")).isEqualTo("http://h/a%FF");
  }
}
