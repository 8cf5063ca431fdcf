// A small SVG of resident memory and open descriptors over the run, each on its own scale.
import Foundation

/// Draws resident memory (MiB, left scale, blue) and descriptors (right scale, orange) against
/// seconds, as a self-contained SVG a browser opens.
enum SoakPlot {
    static func svg(_ samples: [SoakSample]) -> String {
        let (width, height, margin) = (640.0, 260.0, 48.0)
        let lastSecond = max(samples.last?.seconds ?? 1, 1)
        let memory = samples.map { Double($0.residentBytes) / 1_048_576 }
        let descriptors = samples.map { Double($0.descriptors) }
        let memoryTop = max(memory.max() ?? 1, 1) * 1.1
        let descriptorTop = max(descriptors.max() ?? 1, 1) * 1.1
        func x(_ second: Double) -> Double { margin + (width - 2 * margin) * second / lastSecond }
        func y(_ value: Double, top: Double) -> Double { height - margin - (height - 2 * margin) * value / top }
        func line(_ values: [Double], top: Double, color: String) -> String {
            let points = zip(samples, values).map { String(format: "%.1f,%.1f", x($0.0.seconds), y($0.1, top: top)) }
            return "<polyline fill='none' stroke='\(color)' stroke-width='1.5' points='\(points.joined(separator: " "))'/>"
        }
        let bottom = height - margin
        return """
            <svg xmlns='http://www.w3.org/2000/svg' width='\(Int(width))' height='\(Int(height))' font-family='sans-serif' font-size='11'>
            <rect width='100%' height='100%' fill='white'/>
            <line x1='\(margin)' y1='\(bottom)' x2='\(width - margin)' y2='\(bottom)' stroke='black'/>
            <line x1='\(margin)' y1='\(margin)' x2='\(margin)' y2='\(bottom)' stroke='#1f77b4'/>
            <line x1='\(width - margin)' y1='\(margin)' x2='\(width - margin)' y2='\(bottom)' stroke='#ff7f0e'/>
            \(line(memory, top: memoryTop, color: "#1f77b4"))
            \(line(descriptors, top: descriptorTop, color: "#ff7f0e"))
            <text x='\(margin)' y='\(margin - 8)' fill='#1f77b4'>RSS, MiB (max \(String(format: "%.0f", memoryTop)))</text>
            <text x='\(width - margin)' y='\(margin - 8)' fill='#ff7f0e' text-anchor='end'>descriptors (max \(Int(descriptorTop)))</text>
            <text x='\(width / 2)' y='\(height - 14)' text-anchor='middle'>seconds (0 to \(Int(lastSecond)))</text>
            <text x='\(margin - 4)' y='\(bottom)' text-anchor='end'>0</text>
            </svg>
            """
    }
}
