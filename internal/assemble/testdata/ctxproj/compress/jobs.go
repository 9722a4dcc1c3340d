package compress

// Jobs that all report to the stats hub.

func compressJob01() { compressBufferBlocksStats(1) }

func compressJob02() { compressBufferBlocksStats(2) }

func compressJob03() { compressBufferBlocksStats(3) }

func compressJob04() { compressBufferBlocksStats(4) }

func compressJob05() { compressBufferBlocksStats(5) }

func compressJob06() { compressBufferBlocksStats(6) }

func compressJob07() { compressBufferBlocksStats(7) }

func compressJob08() { compressBufferBlocksStats(8) }

func compressJob09() { compressBufferBlocksStats(9) }

func compressJob10() { compressBufferBlocksStats(10) }

func compressJob11() { compressBufferBlocksStats(11) }

func compressJob12() { compressBufferBlocksStats(12) }

func compressJob13() { compressBufferBlocksStats(13) }

func compressJob14() { compressBufferBlocksStats(14) }

func compressJob15() { compressBufferBlocksStats(15) }

func compressJob16() { compressBufferBlocksStats(16) }

func compressJob17() { compressBufferBlocksStats(17) }

func compressJob18() { compressBufferBlocksStats(18) }

func compressJob19() { compressBufferBlocksStats(19) }

func compressJob20() { compressBufferBlocksStats(20) }

func compressJob21() { compressBufferBlocksStats(21) }

func compressJob22() { compressBufferBlocksStats(22) }

func compressJob23() { compressBufferBlocksStats(23) }

func compressJob24() { compressBufferBlocksStats(24) }

func compressJob25() { compressBufferBlocksStats(25) }

func compressJob26() { compressBufferBlocksStats(26) }

func compressJob27() { compressBufferBlocksStats(27) }

func compressJob28() { compressBufferBlocksStats(28) }

func compressJob29() { compressBufferBlocksStats(29) }

func compressJob30() { compressBufferBlocksStats(30) }
