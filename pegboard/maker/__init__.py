"""The maker's tools: the doctor that checks a built board, the firmware installer,
and the generated parts of the hardware guide."""
